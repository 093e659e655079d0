"""Text analysis shared by the search index (writes) and search queries (reads).

One normalisation for both sides: NFKC, case folded, Latin diacritics removed, Traditional
Chinese characters folded to Simplified (core.text.chinese: 葉綠體 and 叶绿体 are one term, so
either script finds both; OpenCC is loaded only for text with Han characters). Tokens are
runs of letters/digits, except that every CJK character (Han, kana) is a token of its own, so
a Chinese term of any length is a phrase of single characters, or of overlapping bigrams.

Index columns (all written space-separated, so FTS5's unicode61 tokenizer splits them exactly
as here):

- ``words``: every token in order (English words as written, CJK characters one by one).
- ``stems``: English words stemmed (Snowball English, stop words out) and CJK bigrams.
- ``trunc``: English words cut to their first five letters ("british" / "britain" -> "briti").

The index side reads all three columns and the BM25 lengths from one pass, `index_row`; it
must agree with `tokens` / `analyse` (the query side), and tests/test_search_index_analysis.py
checks that it does.

Nothing here is FTS query syntax; `fts_phrase` quotes tokens for the query side.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass
from functools import lru_cache

import Stemmer

from core.text.chinese import fold_chinese
from core.text.cjk import HAN, KANA

CJK_CHARS = KANA + HAN  # each one a token of its own
_RUN = re.compile(rf"[{CJK_CHARS}]+|[^\W_{CJK_CHARS}]+")
_CJK_RUN = re.compile(rf"[{CJK_CHARS}]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")
# the same sentence ends, found without a lookbehind at every position (see sentence_count)
_LATIN_END = re.compile(r"[.!?;](?=\s)")
_CJK_END = re.compile("[。！？；]")
_ASCII_RUN = re.compile("[a-z0-9]+")  # _RUN on case-folded ASCII text, faster
_COMBINING = re.compile("[\u0300-\u036f]")
TRUNC = 5

# English function words (and question words): left out of the stems column and of scoring.
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "from",
        "has",
        "have",
        "had",
        "not",
        "no",
        "do",
        "does",
        "did",
        "he",
        "she",
        "they",
        "we",
        "you",
        "i",
        "his",
        "her",
        "their",
        "our",
        "your",
        "him",
        "them",
        "us",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "should",
        "must",
        "than",
        "then",
        "so",
        "if",
        "into",
        "about",
        "over",
        "after",
        "before",
        "also",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "some",
        "more",
        "most",
        "such",
        "only",
        "own",
        "same",
        "very",
        "just",
        "there",
        "here",
        "s",
        "t",
    ]
)

# Chinese question words (Simplified and Traditional): in a question they say what is asked,
# not what the answer's paragraph contains, like English "what" / "which" above.
CJK_QUESTION_WORDS = (
    "为什么",
    "為什麼",
    "是什么",
    "是什麼",
    "什么",
    "什麼",
    "怎么",
    "怎麼",
    "怎样",
    "怎樣",
    "如何",
    "哪些",
    "哪个",
    "哪個",
    "哪里",
    "哪裡",
    "哪裏",
    "哪儿",
    "哪兒",
    "哪一",
    "哪",
    "谁",
    "誰",
    "多少",
    "何时",
    "何時",
    "何处",
    "何處",
    "是否",
    "吗",
    "嗎",
    "呢",
)
_CJK_QUESTION = re.compile("|".join(CJK_QUESTION_WORDS))


def strip_question_words(text: str) -> str:
    """A question with its Chinese question words replaced by spaces (query side only)."""
    return _CJK_QUESTION.sub(" ", text)


_stemmer = Stemmer.Stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return str(_stemmer.stemWord(word))


# Common CJK punctuation that NFKC changes, each with its NFKC form (starters only, so
# replacing them first gives the same NFKC result). Without them most Chinese text passes
# NFKC's quick check and is not rebuilt character by character (7x faster on bench_import).
_NFKC_COMMON = tuple(
    (c, unicodedata.normalize("NFKC", c)) for c in "\uff0c\uff1b\uff1a\uff1f\uff01\uff08\uff09\u3000\u2026"
)


def normalize(text: str) -> str:
    """NFKC, case folded, combining diacritics of Latin/Greek/Cyrillic letters removed, Han
    characters in their Simplified form."""
    if not text.isascii():
        for c, form in _NFKC_COMMON:
            text = text.replace(c, form)
    text = unicodedata.normalize("NFKC", text).casefold()
    if text.isascii():
        return text
    text = fold_chinese(text)
    decomposed = unicodedata.normalize("NFD", text)
    if not _COMBINING.search(decomposed):
        # nothing to remove: NFC(NFD(text)) is text itself (NFKC output is already composed)
        return text
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


def is_cjk(token: str) -> bool:
    return bool(_CJK_RUN.match(token))


def runs(text: str) -> list[str]:
    """Normalised runs: whole English words/numbers and whole CJK runs, in order."""
    text = normalize(text)
    return (_ASCII_RUN if text.isascii() else _RUN).findall(text)


def tokens(text: str) -> list[str]:
    """Every token in order: words, and CJK characters one by one."""
    out: list[str] = []
    for run in runs(text):
        if is_cjk(run):
            out.extend(run)
        else:
            out.append(run)
    return out


def bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


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


# A run's share of each column and of the BM25 bag: (words, stems, trunc, bag). English words
# repeat, so each is analysed once (cached); CJK runs are computed each time (clauses rarely
# repeat in real text). The cache is cleared when it gets large.
_Pieces = tuple[str, str, str, int]
_WORD_CACHE: dict[str, _Pieces] = {}
_WORD_CACHE_MAX = 200_000


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


def _word_pieces(run: str) -> _Pieces:
    """An English word's pieces (a stop word only in `words`), cached."""
    if len(_WORD_CACHE) >= _WORD_CACHE_MAX:
        _WORD_CACHE.clear()
    pieces = (run, "", "", 0) if run in STOP else (run, stem(run), run[:TRUNC], 1)
    _WORD_CACHE[run] = pieces
    return pieces


def index_row(text: str) -> IndexRow:
    """One pass over a text for the index: columns (see module doc) and BM25 lengths."""
    get = _WORD_CACHE.get
    norm = normalize(text)
    if norm.isascii():  # English words only: `words` is the runs, every other word counts once
        found = _ASCII_RUN.findall(norm)
        kept = [p for p in [get(run) or _word_pieces(run) for run in found] if p[3]]
        stems = " ".join([p[1] for p in kept])
        return IndexRow(
            " ".join(found), stems, " ".join([p[2] for p in kept]), len(kept), len(kept), sentence_count(text)
        )
    found = _RUN.findall(norm)
    cjk = _cjk_pieces([run for run in found if _CJK_RUN.match(run)]).get
    pieces = [get(run) or cjk(run) or _word_pieces(run) for run in found]
    trunc = [p[2] for p in pieces if p[2]]
    return IndexRow(
        " ".join([p[0] for p in pieces]),
        " ".join([p[1] for p in pieces if p[1]]),
        " ".join(trunc),
        sum([p[3] for p in pieces]),
        len(trunc),
        sentence_count(text),
    )


def sentence_count(text: str) -> int:
    """How many non-blank pieces `_SENTENCE_END.split(text)` gives (at least 1), without the split.

    Every piece before a sentence end holds its end mark, so it is never blank: the count is
    the number of ends, plus one when the text after the last end is not blank.
    """
    ends = len(_LATIN_END.findall(text)) + (0 if text.isascii() else len(_CJK_END.findall(text)))
    tail = text.rstrip()
    last_blank = not tail or tail[-1] in "。！？；" or (tail[-1] in ".!?;" and len(tail) < len(text))
    return max(1, ends + (0 if last_blank else 1))


@dataclass(frozen=True, slots=True)
class Analysis:
    """A text as the ranker sees it.

    `seq`: stems and CJK characters in order (the proximity sequence), `sentence` the index of
    the sentence each belongs to; `bag`: stems + CJK unigrams + CJK bigrams (BM25 terms);
    `trunc`: five-letter truncations of English words; `words`: English words as written
    (normalised), stop words included.
    """

    seq: tuple[str, ...]
    sentence: tuple[int, ...]
    bag: tuple[str, ...]
    trunc: tuple[str, ...]
    sentences: int
    words: tuple[str, ...] = ()


def analyse(text: str) -> Analysis:
    seq: list[str] = []
    sent: list[int] = []
    bag: list[str] = []
    trunc: list[str] = []
    words: list[str] = []
    pieces = [p for p in _SENTENCE_END.split(text) if p.strip()] or [text]
    for si, piece in enumerate(pieces):
        for run in runs(piece):
            if is_cjk(run):
                seq.extend(run)
                sent.extend([si] * len(run))
                bag.extend(run)
                bag.extend(bigrams(run))
                continue
            words.append(run)
            if run not in STOP:
                s = stem(run)
                seq.append(s)
                sent.append(si)
                bag.append(s)
                trunc.append(run[:TRUNC])
    return Analysis(tuple(seq), tuple(sent), tuple(bag), tuple(trunc), len(pieces), tuple(words))


def fts_phrase(parts: list[str]) -> str:
    """A quoted FTS5 phrase built from our own tokens (a `"` inside is doubled)."""
    return '"' + " ".join(p.replace('"', '""') for p in parts) + '"'
