"""The search index's rows of texts: the three column strings of core.text.analysis (words,
stems, trunc) and the BM25 lengths, for a batch of texts in one pass.

Built on the same runs as the query side (`analysis.split_runs`, `stem`, `STOP`, `TRUNC`), so the
index and the queries agree (tests/test_search_index_analysis.py); this is the fast path that
fills the index on import (core.storage.search.index).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from core.text.analysis import STOP, TRUNC, split_runs, stem
from core.text.sentences import count_sentences


@dataclass(frozen=True, slots=True)
class IndexRow:
    """What the index stores for one text: the three column strings and its lengths for BM25
    (`bag` terms, `trunc` truncations, `sentences`), the lengths `analyse` would give."""

    words: str
    stems: str
    trunc: str
    bag: int
    trunc_count: int
    sentences: int


# English words repeat, so each distinct word is analysed once (cached: its stem and truncation;
# None for a stop word) and a text's columns are joined from one cache lookup per word by
# map/filter, the cache filling itself on a miss: no Python step per word. (The lookup, which
# hashes the new string, is most of what a word costs.) CJK runs are computed each time
# (clauses rarely repeat in real text). The cache is cleared when it gets large.
_Pieces = tuple[str, str, str, int]  # a run's share of words, stems, trunc and the BM25 bag
_WORD_CACHE_MAX = 200_000
_STEM, _TRUNC = itemgetter(0), itemgetter(1)


class _WordCache(dict[str, tuple[str, str] | None]):
    """English word -> (its stem, its first TRUNC letters), None for a stop word; filled on a miss."""

    def __missing__(self, run: str) -> tuple[str, str] | None:
        if len(self) >= _WORD_CACHE_MAX:
            self.clear()
        found = self[run] = None if run in STOP else (stem(run), run[:TRUNC])
        return found


_WORD_CACHE = _WordCache()


@dataclass(frozen=True, slots=True)
class IndexRows:
    """Texts analysed for the index: one IndexRow each, in order, and `words`: every English
    word (every run that is not CJK) they hold, once each."""

    rows: tuple[IndexRow, ...]
    words: frozenset[str]


_SPACES = array("I", [32])


def _cjk_pieces(cjk_runs: list[str]) -> dict[str, _Pieces]:
    """Each CJK run's pieces: its characters one by one, and its bigrams.

    The bigrams of all runs come from one array of code points, each position i written as
    (c[i], c[i+1], space), then sliced per run: no string object per bigram.
    """
    if not cjk_runs:
        return {}
    points = array("I")
    points.frombytes("".join(cjk_runs).encode("utf-32-le"))
    n = len(points)
    triples = _SPACES * (3 * n)
    triples[0::3] = points
    triples[1 : 3 * n - 3 : 3] = points[1:]
    written = triples.tobytes().decode("utf-32-le")
    out: dict[str, _Pieces] = {}
    pos = 0
    for run in cjk_runs:
        size = len(run)
        bigrams_ = written[3 * pos : 3 * (pos + size) - 4] if size > 1 else ""  # no trailing space
        out[run] = (" ".join(run), bigrams_, "", 2 * size - 1)
        pos += size
    return out


def _row(text: str, data: bytes, found: list[str], cjk_runs: list[str]) -> IndexRow:
    """One text's columns and lengths from its runs (`_split`); `data`: its UTF-8."""
    if cjk_runs:
        return _mixed_row(text, data, found, cjk_runs)
    kept = list(filter(None, map(_WORD_CACHE.__getitem__, found)))  # stop words out
    stems, truncs = " ".join(map(_STEM, kept)), " ".join(map(_TRUNC, kept))
    return IndexRow(" ".join(found), stems, truncs, len(kept), len(kept), count_sentences(text, data))


def _mixed_row(text: str, data: bytes, found: list[str], cjk_runs: list[str]) -> IndexRow:
    """`_row` for a text with CJK runs among its words."""
    cjk = _cjk_pieces(cjk_runs)
    pieces = [cjk.get(run) or _word_pieces(run) for run in found]
    trunc = [p[2] for p in pieces if p[2]]
    return IndexRow(
        " ".join([p[0] for p in pieces]),
        " ".join([p[1] for p in pieces if p[1]]),
        " ".join(trunc),
        sum([p[3] for p in pieces]),
        len(trunc),
        count_sentences(text, data),
    )


def _word_pieces(run: str) -> _Pieces:
    cached = _WORD_CACHE[run]
    return (run, *cached, 1) if cached else (run, "", "", 0)


def index_rows(texts: Iterable[str]) -> IndexRows:
    """Texts analysed for the index: each one's columns (see core.text.analysis) and BM25 lengths,
    and the English words they hold."""
    rows: list[IndexRow] = []
    vocabulary: set[str] = set()
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")  # read by split_runs and count_sentences
        found, cjk = split_runs(text, data)
        rows.append(_row(text, data, found, cjk))
        vocabulary.update(found)  # each string's hash is computed already: cheap
        vocabulary.difference_update(cjk)  # (CJK runs and words never share a string)
    return IndexRows(tuple(rows), frozenset(vocabulary))


def index_row(text: str) -> IndexRow:
    """One text for the index: columns (see core.text.analysis) and BM25 lengths."""
    return index_rows([text]).rows[0]
