"""Search use case: find any paragraph or memory unit, in English and Chinese.

How a query runs (user input is text, never query syntax):

0. `find` (what the app and the CLI call): words the library does not hold are corrected first
   (search_spell: "showing results for ..."); a query whose words are all there runs as typed.
1. The query is normalised and cut into runs (search_text): English words, CJK runs.
2. Candidate lists from the index (search_query), each best first:
   - ``all``: every run present (English words exact, the last one also as a prefix; a CJK
     run as a phrase of its bigrams, any length from 1 character up);
   - ``phrase``: the whole query as one phrase (2+ runs), the last word a prefix when it was
     one in ``all`` (these two: search_every_word, with what a large library does about
     common words and prefixes many words start with);
   - ``terms``: BM25 over stems and CJK bigrams (any run may match; a question's common
     terms left out: search_termstats, and its rarest QUESTION_TERMS kept: search_terms; a
     pasted text: its rarest terms only, search_candidates);
   - ``units``: the same over memory units (content, tags, questions, answers), placed at
     the paragraph of their first quote;
   - ``substring``: substrings inside words (search_substring: the words of the vocabulary
     that hold them), when the word lists find too little, for a chunk holding a run that is
     not CJK (never a pasted text);
   - ``rerank`` (questions, 3+ runs, not a pasted text): the candidates rescored in Python
     (search_rank: BM25 + sentence + phrase pairs + window + local IDF + truncation + article);
3. Reciprocal rank fusion: score = Σ weight / (60 + rank).
   Optional semantic rerank (`embed_model` set): the top SEMANTIC_POOL scores are blended
   with the cosine of Ollama embeddings (query vs paragraph), SEMANTIC_SHARE of the best score.
4. Small signals (`signals=True`, off for evaluation with `signals=False`): a hit opened
   before (`record_open`, called when the app opens a hit) gains up to `FEEDBACK_BONUS`, an
   article imported in the last weeks up to `RECENCY_BONUS` (search_fuse: both below one RRF
   rank step at the top).
5. A paragraph that matches on its own text is shown, after its best unit when that unit holds
   every word too (a unit outranks its paragraph); one whose only match is a unit's text is
   shown as that unit.
   (A unit used to stand in for its paragraph even when it matched one word of several: the
   paragraph dropped out behind a unit that did not contain the words.) With unit filters,
   only units (up to MAX_UNITS_PER_PARAGRAPH per paragraph).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.domain import NO_LOCATOR, Locator
from core.domain.search import DEFAULT_UNIT_STATUSES, SearchFilters, SearchHit, SearchResult
from core.host.config import Settings
from core.services.search.candidates import PASTED_TOKENS, rarest_terms
from core.services.search.every_word import every_word
from core.services.search.fuse import RRF_K, apply_signals, fuse, shown_at
from core.services.search.rank import Doc, rerank
from core.services.search.snippet import make_snippet
from core.services.search.spell import Speller
from core.services.search.substring import Substrings
from core.services.search.terms import query_terms, rarest_of, selective_chars, without_common
from core.services.search.termstats import TermStats
from core.storage.db import write_transaction
from core.storage.search import index as search_index
from core.storage.search import query as search_query
from core.text import sanitize
from core.text.analysis import STOP, analyse, is_cjk, runs, strip_question_words, tokens

FUSION_WEIGHT = 0.5  # rerank: weight of the fused RRF score (1.0 = a top-1 in one list)
CANDIDATES = 100  # each candidate list's length
# the rerank's candidates, each analysed when not cached (150-200 us; issue 32). Dev, tuning half, R@1 / MRR
# at 100, 60, 40: SQuAD .874/.913, .873/.912, .872/.912; DRCD .957/.976, CMRC .984/.990 at all three
RERANKED = 60
SEMANTIC_POOL, SEMANTIC_SHARE = 30, 0.5
# a 1-2 word / short CJK term found in more paragraphs than this lists the newest first (speed)
SHORT_CAP = 500
MAX_UNITS_PER_PARAGRAPH = 3  # unit searches (unit filters); otherwise the best unit stands for its paragraph
CACHE_SIZE = 20000

Embedder = Callable[[list[str]], list[list[float]]]


@dataclass
class SearchService:
    settings: Settings
    clock: Callable[[], int]
    signals: bool = True
    _cache: OrderedDict[int, Doc] = field(default_factory=OrderedDict, init=False, repr=False)
    _article_of: dict[int, int] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    speller: Speller = field(default_factory=Speller, init=False, repr=False)
    substrings: Substrings = field(default_factory=Substrings, init=False, repr=False)
    term_stats: TermStats = field(default_factory=TermStats, init=False, repr=False)
    _embedder: tuple[tuple[str, str, float], Embedder] | None = field(default=None, init=False, repr=False)

    @property
    def embedder(self) -> Embedder | None:
        """The embedding model of the settings in use (`embed_model`; None: lexical only)."""
        config = self.settings.current
        if not config.embed_model:
            return None
        wanted = (config.embed_model, config.ollama_host, config.ollama_timeout_s)
        with self._lock:
            if self._embedder is None or self._embedder[0] != wanted:
                from core.services.search.memory import ollama_embedder

                embed = ollama_embedder(
                    config.ollama_host or None, config.embed_model, min(10.0, config.ollama_timeout_s)
                )
                self._embedder = (wanted, embed)
            return self._embedder[1]

    # --- public ---------------------------------------------------------------------------

    def find(
        self, query: str, limit: int = 10, filters: SearchFilters | None = None, *, correct: bool = True
    ) -> SearchResult:
        """`search`, and when words of the query are not in the library (a typo), the search
        for their nearest library words instead (core.services.search.spell), said in
        `showing_results_for`. A query whose words are all in the library is never rewritten;
        `correct=False` searches the words as typed. A pasted text (over PASTED_TOKENS tokens)
        is not corrected either: it is found by its rarest terms the library holds (a word it
        lacks is left out of them, search_candidates), and looking up each of its words cost a
        pasted English paragraph 2.6 of its 9.7 ms at 100k paragraphs (issue 32)."""
        pasted = len(tokens(sanitize(query, single_line=True))) > PASTED_TOKENS
        fixed = self.speller.correct(query) if correct and not pasted else None
        if fixed is not None:
            hits = self.search(fixed, limit, filters)
            if hits:
                return SearchResult(query, tuple(hits), fixed)
        return SearchResult(query, tuple(self.search(query, limit, filters)))

    def search(self, query: str, limit: int = 10, filters: SearchFilters | None = None) -> list[SearchHit]:
        """Best first. Never raises on odd input: an empty or punctuation-only query finds nothing."""
        filters = filters or SearchFilters()
        limit = max(1, min(int(limit), 1000))
        query = sanitize(query, single_line=True)  # control characters (NUL, ESC) are never text
        q_runs = runs(query)
        if not q_runs:
            return []
        unit_ids = self._allowed_units(filters)
        lists, unit_hits, whole, question = self._candidate_lists(query, q_runs, limit, filters, unit_ids)
        own = {pk for name, ranked in lists.items() if name != "units" for pk in ranked}
        fused = fuse(lists)
        if question and fused:
            fused = self._rerank(query, fused, limit)
        embedder = self.embedder
        if embedder is not None and fused:
            fused = self._semantic(embedder, query, fused)
        if not fused and not unit_hits:
            return []
        return self._hits(query, fused, own, unit_hits, whole, limit, filters)

    def tags(self) -> list[tuple[str, int]]:
        """The tags a search can filter by, with their unit counts, most used first."""
        return search_query.tag_counts()

    def record_open(self, hit: SearchHit) -> None:
        """Remember that a hit was opened (a small ranking signal; see `signals`)."""
        rows = search_query.paragraph_pk(hit.article_id, hit.paragraph_id)
        with write_transaction():
            search_index.record_open(rows or 0, hit.unit_id, self.clock())

    def rebuild_index(self) -> None:
        """Recreate the whole index from the library (after a crash or an upgrade)."""
        with write_transaction():
            search_index.rebuild()
        with self._lock:
            self._cache.clear()
            self._article_of.clear()

    # --- candidate lists ------------------------------------------------------------------

    def _candidate_lists(
        self,
        query: str,
        q_runs: list[str],
        limit: int,
        filters: SearchFilters,
        unit_ids: set[int] | None,
    ) -> tuple[dict[str, list[int]], dict[int, list[int]], set[int], bool]:
        arts = filters.article_ids
        k = max(CANDIDATES, limit)
        prefix = not query[-1:].isspace() and not is_cjk(q_runs[-1]) and q_runs[-1] not in STOP
        lists: dict[str, list[int]] = {}
        exprs: list[str] = []
        q_toks = tokens(query)
        # a term (1-2 words, a CJK term up to 4 characters) is ranked by fusion alone; anything longer is reranked
        question = len(q_runs) > 2 or any(is_cjk(r) and len(r) > 4 for r in q_runs)
        pasted = len(q_toks) > PASTED_TOKENS  # its rarest terms find it; every word would be a long AND
        if len(q_runs) <= 8 and not pasted:
            listed = every_word(
                self.term_stats, q_runs, q_toks, prefix=prefix, k=k, article_ids=arts, cap=SHORT_CAP
            )
            exprs.append(listed.unit_expr)
            lists["all"] = listed.found
            if listed.phrase is not None:
                lists["phrase"] = listed.phrase
        t_runs = runs(strip_question_words(query)) or q_runs if question else q_runs
        stems_, bis, chars = query_terms(t_runs)
        if pasted:  # its rarest terms find it (search_candidates)
            chosen = rarest_terms(self.term_stats, stems_, bis, chars)
            exprs.append(chosen.unit_expr)
            lists["terms"] = [
                pk for pk, _ in search_query.paragraphs_matching(chosen.expr, k, arts, chosen.cap)
            ]
        else:
            if question:  # selective single characters widen the pool (a rare 䲟 next to common ones)
                chars = chars + selective_chars(q_runs, self.term_stats)
                words = [r for r in t_runs if not is_cjk(r)]
                stems_, bis = without_common(stems_, bis, self.term_stats, words)
                stems_, bis = rarest_of(stems_, bis, self.term_stats)
            terms_expr = search_query.any_of(stems_, bis, chars)
            exprs.append(terms_expr)
            if question or "all" not in lists or len(lists["all"]) < limit:
                cap = None if question else SHORT_CAP
                lists["terms"] = [pk for pk, _ in search_query.paragraphs_matching(terms_expr, k, arts, cap)]
        if len(lists.get("all", [])) < limit and len(q_runs) <= 4 and not pasted:
            # CJK runs already match any substring through their characters / bigrams (a Chinese clause
            # with its comma was a phrase of every character: 100 ms at 100k, issue 32), so not a CJK chunk
            chunks = [c for c in query.split() if len(c) >= 3 and not all(map(is_cjk, runs(c)))]
            lists["substring"] = self.substrings.paragraphs(chunks, k, arts, SHORT_CAP)
        unit_hits, whole = self._unit_candidates(exprs, k, filters, unit_ids, every_word="all" in lists)
        lists["units"] = [pk for pk in unit_hits if pk > 0]
        if filters.wants_units_only:
            keep = set(unit_hits)
            lists = {name: [pk for pk in ranked if pk in keep] for name, ranked in lists.items()}
        # a pasted text is ranked by its rarest terms: the rerank would read every term of it
        return lists, unit_hits, whole, question and not pasted

    def _allowed_units(self, filters: SearchFilters) -> set[int] | None:
        """Unit ids allowed by the memory-state filters (None: no such filter)."""
        if not filters.memory_state:
            return None
        if not search_query.card_table_exists():
            return set()
        from core.services.review.parameters import forgetting_curve

        decay, factor = forgetting_curve()
        return search_query.units_in_memory_state(
            now=self.clock(),
            due=filters.due,
            leech=filters.leech,
            suspended=filters.suspended,
            retrievability_below=filters.retrievability_below,
            decay=decay,
            factor=factor,
        )

    def _unit_candidates(
        self,
        exprs: list[str],
        k: int,
        filters: SearchFilters,
        allowed: set[int] | None,
        *,
        every_word: bool,
    ) -> tuple[dict[int, list[int]], set[int]]:
        """Paragraph pk -> matching unit ids (best first), paragraphs in unit rank order; and the
        units that hold every word (found by the first expression, when `every_word`)."""
        statuses = filters.unit_statuses or DEFAULT_UNIT_STATUSES
        cond, params = search_query.unit_filter_sql(
            statuses, filters.memory_types, filters.tags, filters.article_ids, filters.origin
        )
        ranked: list[int] = []
        whole: set[int] = set()
        for n, expr in enumerate(exprs):
            for uid, _ in search_query.units_matching(expr, k, cond, params):
                if uid not in ranked and (allowed is None or uid in allowed):
                    ranked.append(uid)
            if n == 0 and every_word:
                whole.update(ranked)
            if len(ranked) >= k:
                break
        rows = search_query.unit_rows(ranked)
        out: dict[int, list[int]] = {}
        for uid in ranked:
            row = rows.get(uid)
            if row is None:
                continue
            key = row.paragraph_pk if row.paragraph_pk is not None else -uid
            units = out.setdefault(key, [])
            if len(units) < MAX_UNITS_PER_PARAGRAPH:
                units.append(uid)
        return out, whole

    def _docs(self, pks: Sequence[int]) -> dict[int, Doc]:
        """Prepared candidates, cached (searches may run in worker threads: one lock)."""
        with self._lock:
            missing = [pk for pk in pks if pk not in self._cache]
        fresh = {
            pk: (Doc(analyse(row.text)), row.article_id)
            for pk, row in search_query.paragraph_rows(missing).items()
        }
        with self._lock:
            for pk, (doc, article_id) in fresh.items():
                self._cache[pk] = doc
                self._article_of[pk] = article_id
            while len(self._cache) > CACHE_SIZE:
                old, _ = self._cache.popitem(last=False)
                self._article_of.pop(old, None)
            return {pk: self._cache[pk] for pk in pks if pk in self._cache}

    def _rerank(self, query: str, fused: dict[int, float], limit: int) -> dict[int, float]:
        """Rescore the fused pool (the best RERANKED, or `limit` when more hits are wanted) with
        search_rank; the fused RRF score stays a feature."""
        pool = sorted(fused, key=lambda pk: -fused[pk])[: max(RERANKED, limit)]
        q = analyse(strip_question_words(query))
        if not q.seq:
            q = analyse(query)
        cands = self._docs(pool)
        corpus = self.term_stats.corpus(q)
        with self._lock:
            article_of = {pk: self._article_of.get(pk, -pk) for pk in cands}
        scores = rerank(q, cands, article_of, corpus)
        scale = FUSION_WEIGHT * (RRF_K + 1)
        return {pk: scores.get(pk, 0.0) + scale * fused[pk] for pk in pool}

    def _semantic(self, embedder: Embedder, query: str, fused: dict[int, float]) -> dict[int, float]:
        """Blend the best SEMANTIC_POOL scores with embedding similarity; unchanged on any fault."""
        from core.services.search.memory import similarities

        pool = sorted(fused, key=lambda pk: -fused[pk])[:SEMANTIC_POOL]
        cos = similarities(embedder, query, pool)
        if not cos:
            return fused
        top = fused[pool[0]]
        out = dict(fused)
        for pk in pool:
            out[pk] = (1 - SEMANTIC_SHARE) * fused[pk] + SEMANTIC_SHARE * top * max(0.0, cos.get(pk, 0.0))
        return out

    # --- hits -----------------------------------------------------------------------------

    def _hits(
        self,
        query: str,
        fused: dict[int, float],
        own: set[int],
        unit_hits: dict[int, list[int]],
        whole: set[int],
        limit: int,
        filters: SearchFilters,
    ) -> list[SearchHit]:
        """The hits in order; `own`: paragraphs that matched on their own text (not only through
        a unit placed at them); `whole`: units that hold every word."""
        order = sorted(fused, key=lambda pk: -fused[pk])[: limit * 2]
        orphan_units = [uid for key, uids in unit_hits.items() if key < 0 for uid in uids]
        rows = search_query.paragraph_rows(pk for pk in order if pk > 0)
        if self.signals:
            apply_signals(fused, rows, self.clock())
            order = sorted(order, key=lambda pk: -fused[pk])
        picked: list[tuple[int, int | None, float]] = []  # (paragraph pk, unit id, score)
        for pk in order:
            if pk not in rows:
                continue
            shown = shown_at(pk, unit_hits.get(pk, []), own, whole, units_only=filters.wants_units_only)
            picked += [(pk, uid, fused[pk] - n * 1e-6) for n, uid in enumerate(shown)]
        picked = picked[:limit]
        units = search_query.unit_rows([uid for _, uid, _ in picked if uid is not None] + orphan_units)
        hits: list[SearchHit] = []
        for pk, uid, score in picked:
            row = rows[pk]
            text = units[uid].content if uid is not None and uid in units else row.text
            snippet, spans = make_snippet(text, query)
            hits.append(
                SearchHit(
                    article_id=row.article_id,
                    source_path=row.source_path,
                    title=row.title,
                    paragraph_id=row.paragraph_id,
                    position=row.position,
                    unit_id=uid,
                    score=score,
                    snippet=snippet,
                    highlights=spans,
                    locator=Locator.from_dict(json.loads(row.locator_json))
                    if row.locator_json
                    else NO_LOCATOR,
                )
            )
        for uid in orphan_units[: max(0, limit - len(hits))]:
            unit = units.get(uid)
            if unit is None:
                continue
            snippet, spans = make_snippet(unit.content, query)
            path, title = search_query.article_path(unit.article_id)
            hits.append(SearchHit(unit.article_id, path, title, "", -1, uid, 0.0, snippet, spans))
        return hits
