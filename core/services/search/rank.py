"""Lexical reranking of candidate paragraphs for question-like queries (pure functions, no I/O).

The score of a candidate is a weighted sum of documented features (weights in `WEIGHTS`):

- ``bm25``: Okapi BM25 over stems + CJK unigrams + CJK bigrams (k1=1.2, b=0.75).
- ``sentence``: the best single sentence's BM25 (questions are usually about one sentence).
- ``pairs``: IDF of query term pairs that also stand side by side in the paragraph (phrases).
- ``window``: share of the query's IDF mass found inside one window of nearby terms.
- ``local``: IDF re-weighted within the candidate pool (terms that set a paragraph apart
  from its neighbours, e.g. within one article, count more).
- ``trunc``: BM25 over five-letter truncations (variants a stemmer misses: British/Britain).
- ``article``: the summed BM25 of the candidates from the same article (topic evidence).
- ``exact``: BM25 over English words as written (no stemming): the surface form counts.
- ``phrases``: English word pairs of the query (stop words included, e.g. "the Black") that
  stand side by side in the paragraph.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, pairwise
from operator import itemgetter

from core.text.analysis import STOP, Analysis, is_cjk

K1, B = 1.2, 0.75
WINDOW_WORDS, WINDOW_CJK = 25, 40
WEIGHTS: dict[str, float] = {
    "bm25": 0.5,
    "exact": 0.3,
    "phrases": 0.75,
    "sentence": 0.3,
    "pairs": 0.4,
    "window": 4.0,
    "local": 0.15,
    "trunc": 0.45,
    "article": 2.0,
}


@dataclass(frozen=True, slots=True)
class Corpus:
    """Collection statistics: paragraph count, average lengths and document frequencies."""

    docs: int
    avg_bag: float
    avg_trunc: float
    avg_sentence: float
    df: Mapping[str, int]  # bag terms
    df_trunc: Mapping[str, int]
    df_words: Mapping[str, int]

    def idf(self, term: str) -> float:
        return _idf(self.docs, self.df.get(term, 0))

    def idf_trunc(self, term: str) -> float:
        return _idf(self.docs, self.df_trunc.get(term, 0))


def _idf(n: int, df: int) -> float:
    df = min(df, n)
    return math.log(1 + (n - df + 0.5) / (df + 0.5)) if n else 0.0


def bm25(
    query: Sequence[str], tf: Mapping[str, int], length: int, avg: float, idf: Mapping[str, float]
) -> float:
    norm = K1 * (1 - B + B * length / avg) if avg > 0 else K1
    total = 0.0
    for t in query:
        f = tf.get(t)
        if f:
            total += idf[t] * f * (K1 + 1) / (f + norm)
    return total


def window_mass(occ: Sequence[tuple[int, str]], idf: Mapping[str, float], width: int) -> float:
    """The largest IDF sum of distinct query terms inside any run of `width` positions;
    `occ` is the sorted (position, term) list of query-term occurrences."""
    best = mass = 0.0
    counts: Counter[str] = Counter()
    j = 0
    for p, t in occ:
        if counts[t] == 0:
            mass += idf[t]
        counts[t] += 1
        while occ[j][0] <= p - width:
            old = occ[j][1]
            counts[old] -= 1
            if counts[old] == 0:
                mass -= idf[old]
            j += 1
        best = max(best, mass)
    return best


def _pair(a: str, b: str) -> str:
    """Two neighbouring terms as one string (terms never hold a NUL)."""
    return f"{a}\0{b}"


class Doc:
    """A candidate paragraph prepared for ranking (cached by the search service): its analysis
    as tuples, nothing counted. What a query needs of it (the counts of its terms, which of them
    stand side by side, a sentence's length) is read per query, in C where it can be
    (`filter`, `compress` with a set's `__contains__`): counting every term, truncation and word
    of 60 cold candidates and joining every pair of neighbours was as costly as analysing them
    (2 of a cold question's 4.5 ms of preparation, issue 32), for a query that asks about a few.

    Tuples of strings: the garbage collector does not walk them (a per-term list of positions
    and sets of tuples made a cold question's 100 candidates twice as slow, through collections,
    as the work itself)."""

    __slots__ = ("bag", "sentence", "seq", "trunc", "words", "words_len")

    def __init__(self, a: Analysis) -> None:
        self.bag = a.bag
        self.trunc = a.trunc
        self.seq = a.seq
        self.sentence = a.sentence  # non-decreasing: the sentence of each place of `seq`
        self.words = a.words
        self.words_len = len(a.words) - sum(map(STOP.__contains__, a.words))  # content words


def _occurrences(seq: Sequence[str], terms: frozenset[str]) -> list[tuple[int, str]]:
    """The (position, term) of every query term in a sequence, in order."""
    return list(compress(enumerate(seq), map(terms.__contains__, seq)))


def _counts(items: Sequence[str], wanted: frozenset[str]) -> Counter[str]:
    """How often each of `wanted` occurs in `items` (absent ones left out)."""
    return Counter(filter(wanted.__contains__, items))


def _neighbours(occ: list[tuple[int, str]]) -> set[str]:
    """The pairs (`_pair`) of terms in `occ` that stand side by side, in order (in C: a
    Chinese query's characters stand in hundreds of places)."""
    at = dict(occ)
    after = list(map(at.get, map(_PLUS_ONE, at)))  # the term in the next place, if any
    return {_pair(t, u) for t, u in compress(zip(at.values(), after, strict=True), after) if u is not None}


_PLUS_ONE = (1).__add__
_TERM = itemgetter(1)  # of a (position, term) place


def rerank(
    query: Analysis,
    candidates: Mapping[int, Doc],
    article_of: Mapping[int, int],
    corpus: Corpus,
    weights: Mapping[str, float] = WEIGHTS,
    explain: dict[int, dict[str, float]] | None = None,
) -> dict[int, float]:
    """Score every candidate paragraph (pk -> score, higher is better); `explain` receives
    each candidate's features."""
    q_bag = sorted(set(query.bag))
    q_trunc = sorted(set(query.trunc))
    idf = {t: corpus.idf(t) for t in set(q_bag) | set(query.seq)}
    idf_tr = {t: corpus.idf_trunc(t) for t in q_trunc}
    q_seq = sorted(set(query.seq))
    seq_terms = frozenset(q_seq)
    total_mass = sum(idf[t] for t in q_seq) or 1.0
    q_pairs = {(a, b) for a, b in zip(query.seq, query.seq[1:], strict=False) if a != b}
    q_pair_keys = [(a, b, _pair(a, b)) for a, b in q_pairs]  # in the set's order, as summed before
    q_words = sorted({w for w in query.words if w not in STOP})
    idf_w = {w: _idf(corpus.docs, corpus.df_words.get(w, 0)) for w in q_words}
    q_word_pairs = _word_pairs(query.words)
    width = _window(query.seq)

    trunc_set = frozenset(q_trunc)
    words_set = frozenset(q_words)
    said = frozenset(query.words)  # the words of the query's word pairs, stop words included
    occs, tfs = _places_and_counts(candidates, frozenset(q_bag), seq_terms)
    local_df: Counter[str] = Counter()
    for tf in tfs.values():
        local_df.update(tf.keys())  # paragraphs of the pool holding each term
    pool = max(1, len(candidates))

    features: dict[int, dict[str, float]] = {}
    for pk, d in candidates.items():
        occ = occs[pk]
        tf = tfs[pk]
        f: dict[str, float] = {"bm25": bm25(q_bag, tf, len(d.bag), corpus.avg_bag, idf)}
        f["sentence"] = _best_sentence(occ, d, corpus.avg_sentence, idf)
        side = _neighbours(occ)
        f["pairs"] = sum(idf[x] + idf[y] for x, y, key in q_pair_keys if key in side)
        f["window"] = window_mass(occ, idf, width) / total_mass
        f["local"] = sum(idf[t] * math.log(1 + pool / local_df[t]) for t in q_bag if t in tf)
        f["trunc"] = (
            bm25(q_trunc, _counts(d.trunc, trunc_set), len(d.trunc), corpus.avg_trunc, idf_tr)
            if q_trunc
            else 0.0
        )
        f["exact"] = (
            bm25(q_words, _counts(d.words, words_set), d.words_len, corpus.avg_trunc, idf_w)
            if q_words
            else 0.0
        )
        said_side = _neighbours(_occurrences(d.words, said)) if q_word_pairs else set()
        f["phrases"] = float(sum(1 for pair in q_word_pairs if pair in said_side))
        features[pk] = f
    if explain is not None:
        explain.update(features)
    return _scores(features, article_of, weights)


def _word_pairs(words: Sequence[str]) -> set[str]:
    """The query's neighbouring words (`_pair`), stop words included, but not two of them."""
    return {_pair(a, b) for a, b in pairwise(words) if not (a in STOP and b in STOP)}


def _window(seq: Sequence[str]) -> int:
    """The window width: CJK characters when they are most of the query's sequence, else words."""
    cjk_share = sum(1 for t in seq if is_cjk(t)) / max(1, len(seq))
    return WINDOW_CJK if cjk_share > 0.5 else WINDOW_WORDS


def _places_and_counts(
    candidates: Mapping[int, Doc], bag_set: frozenset[str], seq_terms: frozenset[str]
) -> tuple[dict[int, list[tuple[int, str]]], dict[int, Counter[str]]]:
    """Each candidate's places of the query's `seq` terms, and its counts of the query's bag terms."""
    occs = {pk: _occurrences(d.seq, seq_terms) for pk, d in candidates.items()}
    if bag_set == seq_terms:  # no CJK bigram asked: a term's places in `seq` are its count in `bag`
        return occs, {pk: Counter(map(_TERM, occ)) for pk, occ in occs.items()}
    return occs, {pk: _counts(d.bag, bag_set) for pk, d in candidates.items()}


def _scores(
    features: dict[int, dict[str, float]], article_of: Mapping[int, int], weights: Mapping[str, float]
) -> dict[int, float]:
    """The weighted sum of each candidate's features, with ``article`` added to them (the
    candidates of its article's summed BM25, over the best article's)."""
    by_article: defaultdict[int, float] = defaultdict(float)
    for pk, f in features.items():
        by_article[article_of.get(pk, -pk)] += f["bm25"]
    top_article = max(by_article.values(), default=0.0) or 1.0
    scores: dict[int, float] = {}
    for pk, f in features.items():
        f["article"] = by_article[article_of.get(pk, -pk)] / top_article
        scores[pk] = sum(weights.get(name, 0.0) * value for name, value in f.items())
    return scores


def _best_sentence(occ: list[tuple[int, str]], d: Doc, avg: float, idf: Mapping[str, float]) -> float:
    """BM25 of the best sentence, over the proximity sequence (stems and CJK characters)."""
    per: defaultdict[int, Counter[str]] = defaultdict(Counter)
    for p, t in occ:
        per[d.sentence[p]][t] += 1
    return max(
        (
            bm25(list(tf), tf, bisect_right(d.sentence, s) - bisect_left(d.sentence, s), avg, idf)
            for s, tf in per.items()
        ),
        default=0.0,
    )
