"""The rerank's features read per query from a candidate's analysis (core.services.search.rank):
terms side by side, the query's word pairs, the best sentence and its length (English and
Chinese); and the snippet's densest window found in one pass agrees with counting from every
span."""

from __future__ import annotations

import random

from core.services.search.rank import Corpus, Doc, bm25, rerank
from core.services.search.snippet import BEFORE, WIDTH, _densest
from core.text.analysis import analyse

DF = {"black": 10, "cat": 20, "sat": 30, "mat": 40, "dog": 50, "bark": 60}
CORPUS = Corpus(docs=1000, avg_bag=8.0, avg_trunc=8.0, avg_sentence=4.0, df=DF, df_trunc=DF, df_words=DF)


def _features(query: str, text: str) -> dict[str, float]:
    explain: dict[int, dict[str, float]] = {}
    rerank(analyse(query), {1: Doc(analyse(text))}, {1: 1}, CORPUS, explain=explain)
    return explain[1]


def test_terms_side_by_side_and_word_pairs_count_where_they_stand() -> None:
    idf = {t: CORPUS.idf(t) for t in ("black", "cat", "sat")}
    near = _features("the black cat sat", "The black cat sat on the mat. A dog barked.")
    assert near["pairs"] == idf["black"] + idf["cat"] + idf["cat"] + idf["sat"]
    assert near["phrases"] == 3.0  # the black, black cat, cat sat
    apart = _features("the black cat sat", "The cat sat on the black mat. A dog barked.")
    assert apart["pairs"] == idf["cat"] + idf["sat"]  # only cat sat stand together
    assert apart["phrases"] == 2.0  # the black, cat sat


def test_the_best_sentence_is_scored_with_its_own_length() -> None:
    text = "A dog barked. The black cat sat on the mat."
    f = _features("black cat", text)
    idf = {t: CORPUS.idf(t) for t in ("black", "cat")}
    # the second sentence: black cat sat mat (four terms), each query term once
    assert f["sentence"] == bm25(["black", "cat"], {"black": 1, "cat": 1}, 4, CORPUS.avg_sentence, idf)
    assert f["bm25"] == bm25(["black", "cat"], {"black": 1, "cat": 1}, 6, CORPUS.avg_bag, idf)


def _densest_by_counting(spans: list[tuple[int, int]]) -> int:
    best, best_n = (spans[0][0], 0) if spans else (0, 0)
    for i, (s, _) in enumerate(spans):
        n = sum(1 for t, _ in spans[i:] if t - s < WIDTH - BEFORE)
        if n > best_n:
            best, best_n = s, n
    return best


def test_the_densest_window_is_the_one_counting_from_each_span_finds() -> None:
    rng = random.Random(5)
    for _ in range(300):
        starts = sorted(rng.sample(range(2000), rng.randint(0, 60)))
        spans = [(s, s + 1) for s in starts]
        assert _densest(spans) == _densest_by_counting(spans)


def test_chinese_terms_side_by_side_and_in_one_sentence_score_higher() -> None:
    """A Chinese query's bigrams read in a row in one sentence of the candidate (光合作用的场所)
    count as pairs and fill the best sentence; the same characters scattered over two sentences
    count fewer pairs and a weaker sentence (the rerank's CJK path, not only its English one)."""
    query = "光合作用的场所"
    near = _features(query, "光合作用的场所是叶绿体。植物需要阳光。")
    apart = _features(query, "叶绿体是场所。植物的光合需要作用于阳光。")
    assert near["pairs"] > apart["pairs"] > 0
    assert near["sentence"] > apart["sentence"] > 0
    assert near["bm25"] > apart["bm25"]
