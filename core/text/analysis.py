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

The index side reads all three columns and the BM25 lengths from core.text.indexing's
`index_rows` (each distinct English word analysed once, then looked up), built on `split_runs` here;
it must agree with `tokens` / `analyse` (the query side), and tests/test_search_index_analysis.py
checks that it does.

Nothing here is FTS query syntax; `fts_phrase` quotes tokens for the query side.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from itertools import filterfalse
from operator import itemgetter

import Stemmer

from core.text import outside_ascii
from core.text.chinese import fold_chinese
from core.text.cjk import HAN, KANA
from core.text.sentences import sentence_count as sentence_count  # re-exported (tests read it here)
from core.text.sentences import sentence_pieces
from core.text.stopwords import CJK_QUESTION_WORDS
from core.text.stopwords import STOP as STOP  # re-exported: the query side and the gate import it from here

CJK_CHARS = KANA + HAN  # each one a token of its own
_RUN = re.compile(rf"[{CJK_CHARS}]+|[^\W_{CJK_CHARS}]+")
_CJK_RUN = re.compile(rf"[{CJK_CHARS}]+")
_WORD_RUN = re.compile(r"[^\W_]+")  # _RUN on text without CJK characters
# what separates _RUN's runs in ASCII text: every character but [a-zA-Z0-9], and A-Z lowered (a
# table for bytes.translate over the text's bytes: str.translate looks each character up, about
# 100 instructions a character in callgrind, a third of split_runs on libxml2's page; bytes.translate
# indexes a table, and encode and decode of ASCII are copies)
_ASCII_WORD_BYTES = bytes(ord(chr(i).lower()) if chr(i).isalnum() else 32 for i in range(128)) + b" " * 128
# a character outside ASCII that _RUN's runs hold: a letter or digit of another script, or CJK
_FOREIGN_RUN_CHAR = re.compile(rf"[{CJK_CHARS}]|[^\W_\x00-\x7f]")
_COMBINING = re.compile("[\u0300-\u036f]")
TRUNC = 5
_TRUNCATED = itemgetter(slice(0, TRUNC))  # a word's first TRUNC letters

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
    return split_runs(text)[0]


def split_runs(text: str, data: bytes | None = None) -> tuple[list[str], list[str]]:
    """`_split(normalize(text))`: the runs and the CJK runs of a text, in order.

    Text whose characters outside ASCII each have an ASCII form (`_ascii_form`: a sign that
    only separates words, as a web page's bullets and non-breaking spaces; a Latin letter whose
    normal form is ASCII, é -> e) is read as ASCII with those forms in place: normalising it is
    lower case only. NFKC, case folding, the Chinese fold and the diacritics pass were half of
    the analysis of libxml2's 336 KB page, whose bullets sent three quarters of its text there.
    A text with a few characters that have no ASCII form takes `_runs_around`; one with more
    than _HARD_MAX (Chinese: most of its characters) is normalised whole as soon as they are
    seen, the rest not looked up (a Chinese paragraph's analysis for the rerank: about a third
    of it went to looking up each of its distinct characters, issue 32). `data`: the text's
    UTF-8 (surrogatepass), when the caller has it."""
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    if len(data) == len(text):  # ASCII: _ascii_words of the bytes in hand
        return data.translate(_ASCII_WORD_BYTES).decode("ascii").split(), []
    forms: dict[str, str] = {}
    hard: list[str] = []
    for char in set(outside_ascii(data)):
        form = _ASCII_FORMS[char] if char in _ASCII_FORMS else _ascii_form(char)
        if form is None:
            hard.append(char)
            if len(hard) > _HARD_MAX:  # what _runs_around does with them: normalise it whole
                return _split(normalize(text))
        else:
            forms[char] = form
    if hard:
        return _runs_around(text, forms, hard)
    return _ascii_words(_with_forms(text, forms)), []


def _with_forms(text: str, forms: dict[str, str]) -> str:
    for char, form in forms.items():
        text = text.replace(char, form)
    return text


_HARD_MAX = 8  # distinct characters without an ASCII form that _runs_around reads in context
_HARD_PLACES = 64  # ... and places they stand in, at most: else the text is normalised whole
_CUTS = (" ", "\n")  # where a text may be cut: see _runs_around


def _runs_around(text: str, forms: dict[str, str], hard: list[str]) -> tuple[list[str], list[str]]:
    """`_split(normalize(text))` for a text where a few characters (`hard`) have no ASCII form
    (Ł, a Chinese name in an English page): only the pieces between spaces or line breaks that
    hold them are normalised, the rest is read with the ASCII forms (`forms`), as split_runs reads
    a text without them. The same runs: every step of `normalize` maps a text cut before or
    after a space or a line break (a starter that nothing composes with, its own normal form,
    a separator of runs) to the normal forms of its pieces, joined; except its shortcut, which
    leaves out NFC when NFD finds no diacritic to remove, so a piece is used only when its
    normal form is NFC (what the whole text's NFC would make of it). libxml2's 14,630-character
    news list with "Ł" took 1.5 ms whole (the regex over every character of it, 1 ms)."""
    chunks = _hard_chunks(text, hard)
    if chunks is None:
        return _split(normalize(text))
    found: list[str] = []
    cjk: list[str] = []
    at = 0
    for start, end in chunks:
        normal = normalize(text[start:end])
        if not unicodedata.is_normalized("NFC", normal):
            return _split(normalize(text))
        piece_runs, piece_cjk = _split(normal)
        found += _ascii_words(_with_forms(text[at:start], forms))
        found += piece_runs
        cjk += piece_cjk
        at = end
    found += _ascii_words(_with_forms(text[at:], forms))
    return found, cjk


def _hard_chunks(text: str, hard: list[str]) -> list[tuple[int, int]] | None:
    """(start, end) of each piece of `text` between _CUTS that holds a character of `hard`, in
    order; None when there are more than _HARD_MAX of them or _HARD_PLACES places."""
    if len(hard) > _HARD_MAX:
        return None
    places: list[int] = []
    for char in hard:
        at = text.find(char)
        while at != -1 and len(places) <= _HARD_PLACES:
            places.append(at)
            at = text.find(char, at + 1)
    if len(places) > _HARD_PLACES:
        return None
    chunks: list[tuple[int, int]] = []
    end = -1
    for at in sorted(places):
        if at < end:
            continue  # in the piece found already
        start = max(text.rfind(cut, 0, at) for cut in _CUTS) + 1
        ends = [e for e in (text.find(cut, at) for cut in _CUTS) if e != -1]
        end = min(ends, default=len(text))
        chunks.append((start, end))
    return chunks


def _ascii_words(text: str) -> list[str]:
    """ASCII text's runs of letters and digits, lower case (see _ASCII_WORD_BYTES)."""
    return text.encode("ascii").translate(_ASCII_WORD_BYTES).decode("ascii").split()


_ASCII_FORMS: dict[str, str | None] = {}  # a character outside ASCII -> `_ascii_form`


def _ascii_form(char: str) -> str | None:
    """What `char` (outside ASCII) is to the analysis wherever it stands, in ASCII: " " for a
    sign that only separates words (no letter, digit or CJK character before or after
    `normalize`: • © — \u00a0), its normal form for a character that normalises to ASCII letters
    and digits alone (é -> e, ß -> ss, ﬁ -> fi, ™ -> tm); None for the rest (another script, CJK,
    a combining mark, a character whose decomposition starts with one: read in context)."""
    if char in _ASCII_FORMS:
        return _ASCII_FORMS[char]
    form: str | None = None
    category = unicodedata.category(char)
    first = unicodedata.normalize("NFKD", char)[0]
    if category[0] != "M" and category != "Cs" and unicodedata.category(first)[0] != "M":
        normal = normalize(char)
        if _RUN.search(char) is None and _RUN.search(normal) is None:
            form = " "
        elif normal.isascii() and normal.isalnum():
            form = normal
    _ASCII_FORMS[char] = form
    return form


def _split(norm: str) -> tuple[list[str], list[str]]:
    """A normalised text's runs (`_RUN.findall`) and, of those, its CJK runs, in order.

    Without a letter or digit outside ASCII, the runs are the ASCII ones with every other
    character a separator: str.translate + split, 1.5x the regex's speed (English text).
    Other text without CJK takes `_WORD_RUN`, `_RUN` without its CJK branch (1.2-2x)."""
    if norm.isascii():
        return _ascii_words(norm), []
    if _FOREIGN_RUN_CHAR.search(norm) is None:
        return _ascii_words(norm.encode("ascii", "replace").decode("ascii")), []
    cjk = _CJK_RUN.findall(norm)
    return (_RUN if cjk else _WORD_RUN).findall(norm), cjk


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
    """The text as the ranker sees it (see Analysis). A sentence without CJK runs, most of an
    English text, is analysed a list at a time (stop words filtered, `stem` mapped: its cache is
    C code), not run by run: a cold question reranks 100 paragraphs analysed here (issue 32)."""
    seq: list[str] = []
    sent: list[int] = []
    bag: list[str] = []
    trunc: list[str] = []
    words: list[str] = []
    pieces = [p for p in sentence_pieces(text) if p.strip()] or [text]
    for si, piece in enumerate(pieces):
        piece_runs, cjk_runs = split_runs(piece)
        if not cjk_runs:
            words += piece_runs
            content = list(filterfalse(STOP.__contains__, piece_runs))
            stems_ = list(map(stem, content))
            seq += stems_
            sent += [si] * len(stems_)
            bag += stems_
            trunc += map(_TRUNCATED, content)
            continue
        for run in piece_runs:
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
