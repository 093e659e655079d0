"""Text analysis shared by the search index (writes) and search queries (reads).

One normalisation for both sides: NFKC, case folded, Latin diacritics removed. Tokens are
runs of letters/digits, except that every CJK character (Han, kana) is a token of its own, so
a Chinese term of any length is a phrase of single characters, or of overlapping bigrams.

Index columns (all written space-separated, so FTS5's unicode61 tokenizer splits them exactly
as here):

- ``words``: every token in order (English words as written, CJK characters one by one).
- ``stems``: English words stemmed (Snowball English, stop words out) and CJK bigrams.
- ``trunc``: English words cut to their first five letters ("british" / "britain" -> "briti").

Nothing here is FTS query syntax; `fts_phrase` quotes tokens for the query side.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import Stemmer

CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_RUN = re.compile(rf"[{CJK_CHARS}]+|[^\W_{CJK_CHARS}]+")
_CJK_RUN = re.compile(rf"[{CJK_CHARS}]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")
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


def normalize(text: str) -> str:
    """NFKC, case folded, combining diacritics of Latin/Greek/Cyrillic letters removed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(c for c in decomposed if not ("\u0300" <= c <= "\u036f"))
    return unicodedata.normalize("NFC", stripped)


def is_cjk(token: str) -> bool:
    return bool(_CJK_RUN.match(token))


def runs(text: str) -> list[str]:
    """Normalised runs: whole English words/numbers and whole CJK runs, in order."""
    return _RUN.findall(normalize(text))


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


def index_columns(text: str) -> tuple[str, str, str]:
    """(words, stems, trunc) column values for one text."""
    words: list[str] = []
    stems: list[str] = []
    trunc: list[str] = []
    for run in runs(text):
        if is_cjk(run):
            words.extend(run)
            stems.extend(bigrams(run))
        else:
            words.append(run)
            if run not in STOP:
                stems.append(stem(run))
                trunc.append(run[:TRUNC])
    return " ".join(words), " ".join(stems), " ".join(trunc)


def count_terms(text: str) -> tuple[int, int, int]:
    """(BM25 terms, truncations, sentences) of a text: the lengths `analyse` would give."""
    bag = trunc = 0
    for run in runs(text):
        if is_cjk(run):
            bag += 2 * len(run) - 1
        elif run not in STOP:
            bag += 1
            trunc += 1
    sentences = sum(1 for p in _SENTENCE_END.split(text) if p.strip()) or 1
    return bag, trunc, sentences


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
