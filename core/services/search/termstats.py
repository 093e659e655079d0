"""Document frequencies of a query's index terms, and which of them are common.

FTS5 stores no document frequency: it learns one by reading the term's whole list of entries,
bm25() for every phrase of the expression it ranks by, fts5vocab for every row asked. On
bench_search's 100k paragraphs a word in half of them costs 3 ms in bm25(), 9 ms as a vocab row,
paid again by every statement; the 9-word question read about 60 such lists. Here a term is
counted once, by a match that stops past the common threshold (`threshold`), so a count costs at
most that many entries, and is kept while the index is unchanged (`IndexStats.changes`).

A common term (in more than COMMON_SHARE of the paragraphs of a library of COMMON_MIN_DOCS or
more) still has to match where every word must (the `all` and `phrase` lists), but no BM25 order
reads it: the `all` list is ordered by the other words, the `terms` list leaves it out (at least
two terms kept; a pasted text's is found by its rarest terms, core.services.search.candidates),
and the rerank takes its document frequency as the middle of what it can be
(between the threshold and every paragraph: idf 0.47 at 25%, against 5 to 10 for the words that
set a paragraph apart). A smaller library has no common term: every count is exact.

Measured on the dev sets with the size gate lifted (a term in more than a share of their 964 / 540
paragraphs is common), on the tuning half of the questions (sha1 of the id even), R@1 / R@3:
SQuAD 0.875 / 0.953 without the rule, 0.875 / 0.953 at 25%, 0.877 / 0.953 at 10%, 0.852 / 0.942
at 5%; DRCD 0.963 / 0.993 without, 0.960 / 0.994 at 25%, 0.950 / 0.984 at 10%. A common term's
rerank frequency as every paragraph (idf ~0): DRCD R@3 0.993; as the threshold: 0.989.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from core.services.search.rank import Corpus
from core.storage.search import query as search_query
from core.storage.search.query import IndexStats
from core.text.analysis import STOP, TRUNC, Analysis, fts_phrase, is_cjk, stem

COMMON_SHARE, COMMON_MIN_DOCS = 0.25, 5000
CACHE_MAX = 50_000  # counts kept (one per match expression); all are dropped past it


class TermStats:
    """Counts for one library (searches may run in worker threads: one lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stats: IndexStats | None = None
        # match expression -> (paragraphs counted, whether that is all of them)
        self._counts: dict[str, tuple[int, bool]] = {}

    def current(self) -> IndexStats:
        """The index's counters now; remembered counts go when the paragraphs have changed."""
        stats = search_query.index_stats()
        with self._lock:
            if self._stats != stats:
                self._counts.clear()
                self._stats = stats
        return stats

    @staticmethod
    def threshold(stats: IndexStats) -> int | None:
        """Paragraphs a term may be in before it is common (None: nothing is, a small library)."""
        if stats.docs < COMMON_MIN_DOCS:
            return None
        return int(stats.docs * COMMON_SHARE)

    def matching(self, exprs: Iterable[str], cap: int | None = None) -> dict[str, int]:
        """Paragraphs matching each FTS5 expression, counted up to `cap` (default: one past the
        common threshold, or all in a small library); a count equal to `cap` means that many or more."""
        stats = self.current()
        if cap is None:
            threshold = self.threshold(stats)
            cap = None if threshold is None else threshold + 1
        out: dict[str, int] = {}
        wanted = sorted(set(exprs))
        with self._lock:
            for expr in wanted:
                n, whole = self._counts.get(expr, (0, False))
                if whole or (cap is not None and n >= cap):
                    out[expr] = n if cap is None else min(n, cap)
        fresh = {e: search_query.paragraphs_counted(e, cap) for e in wanted if e not in out}
        with self._lock:
            if self._stats == stats:
                if len(self._counts) + len(fresh) > CACHE_MAX:
                    self._counts.clear()
                for expr, n in fresh.items():
                    self._counts[expr] = (n, cap is None or n < cap)
        out.update(fresh)
        return out

    def counts(self, column: str, terms: Iterable[str], cap: int | None = None) -> dict[str, int]:
        """Paragraphs holding each term in `column` (words / stems / trunc), absent ones left
        out, counted as `matching` counts."""
        exprs = {t: f"{column} : {fts_phrase([t])}" for t in set(terms)}
        found = self.matching(exprs.values(), cap)
        return {t: found[e] for t, e in exprs.items() if found[e]}

    def common(self, exprs: Iterable[str]) -> set[str]:
        """Those of the FTS5 expressions that match more paragraphs than the threshold (none in
        a small library)."""
        threshold = self.threshold(self.current())
        if threshold is None:
            return set()
        return {e for e, n in self.matching(exprs).items() if n > threshold}

    def common_terms(self, column: str, terms: Iterable[str]) -> set[str]:
        """Those of `terms` in more paragraphs than the threshold, in `column` (none in a small library)."""
        threshold = self.threshold(self.current())
        if threshold is None:
            return set()
        return {t for t, n in self.counts(column, terms).items() if n > threshold}

    def frequencies(self, column: str, terms: Iterable[str], *, common: Iterable[str] = ()) -> dict[str, int]:
        """Document frequencies for ranking: a common term's is the middle of what it can be,
        between the threshold and every paragraph (it was not counted further); `common`: terms
        known to be common (a common word's stem), not counted."""
        stats = self.current()
        threshold = self.threshold(stats)
        if threshold is None:
            return self.counts(column, terms)
        wanted = set(terms)
        known = wanted & set(common)
        counts = self.counts(column, wanted - known)
        middle = (threshold + 1 + stats.docs) // 2
        out = {t: (middle if n > threshold else n) for t, n in counts.items()}
        return out | dict.fromkeys(known, middle)

    def corpus(self, q: Analysis) -> Corpus:
        """What the rerank of the analysed query `q` needs of the library: its size, average
        lengths and the frequencies of the query's words, stems and truncations."""
        stats = self.current()
        bag_terms = set(q.bag)
        df_words = self.frequencies("words", {w for w in q.words if w not in STOP})
        # a common word's stem and truncation are in at least its paragraphs: common, not counted
        common = self.common_terms("words", df_words)
        stems_ = [t for t in bag_terms if not (is_cjk(t) and len(t) == 1)]
        df = self.frequencies("stems", stems_, common={stem(w) for w in common})
        df.update(self.frequencies("words", [t for t in bag_terms if is_cjk(t) and len(t) == 1]))
        df_trunc = self.frequencies("trunc", set(q.trunc), common={w[:TRUNC] for w in common})
        docs = max(1, stats.docs)
        return Corpus(
            docs=docs,
            avg_bag=stats.bag / docs,
            avg_trunc=stats.trunc / docs,
            avg_sentence=stats.bag / max(1, stats.sentences),
            df=df,
            df_trunc=df_trunc,
            df_words=df_words,
        )
