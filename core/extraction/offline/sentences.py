"""Sentence spans of a paragraph, in linear time (English and Chinese).

A span is an exact character range of the paragraph, so every quote stays a true substring.
One left-to-right pass over the candidate boundaries: each candidate looks back at most a
few characters (abbreviations, initials) and the bracket depth is carried along, so a 1 MB
paragraph with no line break splits in well under a second (bench/bench_extract.py). Before
this the abbreviation test re-scanned the text before every full stop: 10,000 short
sentences took 44 s.

Rules: CJK terminators end a sentence unless a closing quote or bracket, or a comma follows
(no sentence ever starts with "，"); ". ! ? …" end one before whitespace and a capital, digit,
quote or CJK character, but not after an abbreviation ("Dr.", "e.g.", "U.S."), an initial
("J. K. Rowling"), nor inside brackets that close soon after; decimals never split (no space
follows the point); line breaks always end a sentence (list items, verse, code). A sentence
longer than MAX_SENTENCE is split at semicolons only, never at commas (that cut lists in two);
one with no such break is kept whole up to WRAP_FACTOR times the limit and otherwise cut at
spaces (those pieces do not end like sentences, and the extractor never proposes them).
"""

from __future__ import annotations

import re

from core.text.cjk import HAN, PUNCTUATION

MAX_SENTENCE = {"en": 320, "zh": 110}
MIN_SENTENCE = {"en": 25, "zh": 8}
WRAP_FACTOR = 3
BRACKET_REACH = 200  # a boundary inside brackets that close within this many characters is not one

_CLOSERS = "\"'”’」』）)】》\\]"
_BOUNDARY = re.compile(
    r"[。！？；!?]+[" + _CLOSERS + r"]*(?=[^" + _CLOSERS + r"。！？；!?，、,：:）)])"
    r"|[.!?…]+[" + _CLOSERS + r"]*\s+(?=[\"'“‘(\[A-Z0-9" + HAN + r"])"
    r"|(?<=[" + HAN + PUNCTUATION + r"）”])\.(?=[" + HAN + r"])"
    r"|(?<=\s)[.!?]\s+(?=[a-z])"
    r"|(?<=[.!?:;。！？；：])\s+(?=[*•]\s)"
    r"|\n+"
)
_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "mx",
        "dr",
        "prof",
        "st",
        "sr",
        "jr",
        "vs",
        "fig",
        "figs",
        "al",
        "eg",
        "ie",
        "cf",
        "approx",
        "dept",
        "est",
        "inc",
        "ltd",
        "co",
        "corp",
        "gen",
        "gov",
        "sen",
        "rep",
        "rev",
        "lt",
        "col",
        "sgt",
        "capt",
        "cmdr",
        "adm",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mt",
        "ft",
        "u.s",
        "u.k",
        "u.n",
        "e.g",
        "i.e",
        "a.m",
        "p.m",
        "ph.d",
    ]
)
_NUMBER_ABBREVIATIONS = frozenset({"no", "nos", "vol", "pp", "p", "ch", "sec", "art", "op"})
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_SEMICOLON = re.compile(r"[;；]\s*")
_OPEN = "([（【"
_CLOSE = ")]）】"


def split_sentences(text: str, lang: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of a paragraph (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    start = 0
    depth = 0
    scanned = 0
    for m in _BOUNDARY.finditer(text):
        depth = _depth_after(text, scanned, m.start(), depth)
        scanned = m.start()
        if text[m.start()] == "." and _after_abbreviation(text, m.start(), m.end()):
            continue
        if depth > 0 and text[m.start()] != "\n" and _closes_soon(text, m.end()):
            continue
        spans.append((start, m.end()))
        start = m.end()
        if text[m.start()] == "\n":
            depth = 0  # a line break ends whatever bracket a line left open
    spans.append((start, len(text)))
    limit = MAX_SENTENCE.get(lang, 320)
    out: list[tuple[int, int]] = []
    for a, b in spans:
        a, b = _trim(text, a, b)
        if b <= a:
            continue
        out.extend(_split_long(text, a, b, limit) if b - a > limit else [(a, b)])
    return out


def _depth_after(text: str, a: int, b: int, depth: int) -> int:
    """Bracket depth after text[a:b], starting from `depth` (never below zero)."""
    for ch in text[a:b]:
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and depth:
            depth -= 1
    return depth


def _closes_soon(text: str, at: int) -> bool:
    window = text[at : at + BRACKET_REACH]
    close = min((i for i in (window.find(c) for c in _CLOSE) if i >= 0), default=-1)
    if close < 0:
        return False
    opened = min((i for i in (window.find(c) for c in _OPEN) if i >= 0), default=-1)
    return opened < 0 or close < opened


def _after_abbreviation(text: str, dot: int, end: int) -> bool:
    """The full stop at `dot` closes an abbreviation or an initial, not a sentence."""
    m = _WORD_BEFORE.search(text, max(0, dot - 12), dot)
    if not m or (m.start() > 0 and text[m.start() - 1].isalnum()):
        return False
    word = m.group(1).lower().strip(".")
    if word in _ABBREVIATIONS:
        return True
    if word in _NUMBER_ABBREVIATIONS:
        return end < len(text) and text[end].isdigit()
    # an initial: one capital letter ("J. K. Rowling"), or dotted letters ("U.S.A.")
    return (len(word) == 1 and m.group(1)[0].isupper()) or bool(re.fullmatch(r"(?:[a-z]\.)+[a-z]", word))


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _split_long(text: str, a: int, b: int, limit: int) -> list[tuple[int, int]]:
    """Split at semicolons into pieces near the limit; a piece with no break is kept whole up
    to WRAP_FACTOR x limit, and beyond that cut at spaces."""
    cuts = [m.end() for m in _SEMICOLON.finditer(text, a, b) if a < m.end() < b]
    pieces: list[tuple[int, int]] = []
    start = last = a
    for cut in [*cuts, b]:
        if cut - start > limit and last > start:
            pieces.append(_trim(text, start, last))
            start = last
        last = cut
    pieces.append(_trim(text, start, b))
    out: list[tuple[int, int]] = []
    for pa, pb in pieces:
        out.extend(_hard_wrap(text, pa, pb, WRAP_FACTOR * limit))
    return [p for p in out if p[1] > p[0]]


def _hard_wrap(text: str, a: int, b: int, limit: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    while b - a > limit:
        cut = text.rfind(" ", a + limit // 2, a + limit)
        end = cut if cut > a else a + limit
        out.append(_trim(text, a, end))
        a = end
    out.append(_trim(text, a, b))
    return out
