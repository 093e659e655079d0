"""The `terms` candidates of a pasted text (a query of over PASTED_TOKENS words or characters):
its rarest terms find them (search service, step 2; issue 32).

bm25() scores every paragraph its expression matches, about 1.7 µs each on bench_search's 100k
paragraphs (a count of the same rows: 0.13 µs). A 9-word question ORing its mid-frequency words
(each in 2-18% of the paragraphs) ranked 15-50k paragraphs, 31 of its 39 ms; a Chinese paragraph
pasted as a query ORed a hundred bigrams, 0.6-1.3 s.

So, MaxScore's idea with FTS5 as the index: the query's terms (at most MAX_TERMS of them, spread
evenly over a longer text) are counted, each up to MAX_RANKED + 1 paragraphs (a pasted text's, up
to POOL + 1; a count reads that many entries at most, and is remembered while the index is
unchanged: TermStats), then taken rarest first until they match POOL paragraphs (and are
MIN_TERMS), never past MAX_RANKED. A paragraph that holds none
of the chosen terms holds only terms at least as frequent as every chosen one, each worth little
BM25 (a low IDF) beside a chosen one. bm25() orders the candidates by the chosen terms; the rerank
(questions) then scores the best RERANKED with every term of the query. When every term is in
more than MAX_RANKED paragraphs, the candidates are those holding the two rarest together.

Questions (up to PASTED_TOKENS) are not found this way: tried on them, the dev sets (964 / 540
paragraphs, well under POOL) scored as before, but scaled to them as POOL and MAX_RANKED are to
bench_search's 100k (1% / 3%: 10 and 30 paragraphs) the tuning half (sha1 of the id even) of SQuAD
lost R@1 0.874 -> 0.850 (R@10 0.977 -> 0.930; DRCD R@1 0.957 -> 0.951) for a question p50 of 43
instead of 55 ms CPU at 100k: a question keeps its mid-frequency words (search_terms
without_common). A pasted text is found first by its 12 rarest (bench_search: 40 of 40 pieces,
Chinese and English).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.services.search.termstats import TermStats
from core.storage.search import query as search_query

POOL = 1000  # paragraphs the chosen terms should match (10 x the candidates reranked)
MAX_RANKED = 3000  # paragraphs bm25() may score (about 5 ms): terms past it are left out
MIN_TERMS = 3  # terms taken however few paragraphs they match (a rare word the answer lacks)
MAX_TERMS = 48  # distinct terms counted; a longer text (pasted) is sampled evenly
PASTED_TOKENS = 60  # a query of more tokens (words, CJK characters) is a pasted text: no rerank
PASTED_CHOSEN = 12  # terms a pasted text is found by (bm25() reads every term for every paragraph)

Term = tuple[str, str]  # (index column: "stems" for stems and CJK bigrams, "words" for CJK characters, term)


@dataclass(frozen=True, slots=True)
class Chosen:
    """The paragraphs' match expression (empty: nothing to find), the units' one (the chosen
    terms and those no paragraph holds: a unit may), the terms that reached the SQL, and the
    cap to rank it with (search_query.paragraphs_matching; None: it matches at most MAX_RANKED)."""

    expr: str
    unit_expr: str
    terms: tuple[Term, ...]
    cap: int | None = None


def spread(terms: Sequence[Term], most: int = MAX_TERMS) -> list[Term]:
    """At most `most` distinct terms, in order, spread evenly over a longer list."""
    distinct = list(dict.fromkeys(terms))
    if len(distinct) <= most:
        return distinct
    step = len(distinct) / most
    return [distinct[int(i * step)] for i in range(most)]


def pick(terms: Sequence[Term], df: dict[Term, int], most: int = MAX_TERMS) -> tuple[list[Term], bool]:
    """The rarest terms first (`most` at most), while they match fewer than POOL paragraphs
    (summed) or are fewer than MIN_TERMS, and never more than MAX_RANKED; terms no paragraph
    holds are left out. (terms, together): when every term is more frequent than that, the two
    rarest, to be found together."""
    present = sorted(
        (t for t in terms if df.get(t, 0) > 0), key=lambda t: df[t]
    )  # stable: query order on ties
    chosen: list[Term] = []
    total = 0
    for t in present:
        enough = total >= POOL and len(chosen) >= MIN_TERMS
        if enough or total + df[t] > MAX_RANKED or len(chosen) >= most:
            break
        chosen.append(t)
        total += df[t]
    if chosen or len(present) < 2:
        return chosen or present, False
    return present[:2], True


def _expr(terms: Sequence[Term]) -> str:
    return search_query.any_of(
        [t for c, t in terms if c == "stems"], [], [t for c, t in terms if c == "words"]
    )


def rarest_terms(
    stats: TermStats, stems_: Sequence[str], bigrams: Sequence[str], chars: Sequence[str]
) -> Chosen:
    """The candidate expression of a pasted text's terms (see the module)."""
    terms = spread([*(("stems", t) for t in [*stems_, *bigrams]), *(("words", c) for c in chars)])
    cap = POOL + 1  # a pasted text's many terms are each read no further than a pool
    df: dict[Term, int] = {}
    for column in ("stems", "words"):
        counted = stats.counts(column, [t for c, t in terms if c == column], cap=cap)
        # a count that reached the cap is more than bm25() may rank (how many more was not read)
        df.update(((column, t), n if n < cap else MAX_RANKED + 1) for t, n in counted.items())
    chosen, together = pick(terms, df, PASTED_CHOSEN)
    bounded = sum(df.get(t, 0) for t in chosen) <= MAX_RANKED
    expr = f"({_expr(chosen[:1])}) AND ({_expr(chosen[1:])})" if together else _expr(chosen)
    absent = [t for t in terms if not df.get(t)]
    return Chosen(
        expr, _expr([*chosen, *absent]), tuple(chosen), None if bounded and not together else MAX_RANKED
    )
