"""The reading cursor inside a paragraph and a selection over paragraphs, as plain positions.

A point is (paragraph index, character offset) in the paragraph's reader text; a selection runs
from a start point to an end point (exclusive) and is always an exact span of one paragraph or
of consecutive ones: its edges are word, sentence or paragraph edges, never inside a word and
never on white space, so each part is a true substring (the validator's quote rule holds at
once). Words are runs of letters and digits (with inner ' and -) or, in Chinese, the words
the extractor segments (core/extraction/offline/segment.py: "遗忘曲线" is one word, not four);
the sentences are the extractor's own (core/extraction/offline/sentences.py). Both are imported
on first use: the extractor package is half a second of imports the first frame does not need.

Every step reads at most two paragraphs' texts and works on their cached spans: a move costs
microseconds however long the article (bench/bench_tui.py, "selection moves").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from core.text.cjk import HAN_RE

Span = tuple[int, int]
Point = tuple[int, int]  # (paragraph index, character offset)
Text = Callable[[int], str | None]  # the reader text of paragraph i (None: no such paragraph)

_WORD = re.compile(
    rf"{HAN_RE.pattern}|(?:(?!{HAN_RE.pattern})[^\W_])+(?:['’\-](?:(?!{HAN_RE.pattern})[^\W_])+)*"
)


_HAN_RUN = re.compile(f"(?:{HAN_RE.pattern})+")


@lru_cache(maxsize=512)
def words(text: str) -> tuple[Span, ...]:
    """The word spans of a paragraph (a paragraph without any: the whole of it, if not blank)."""
    found = tuple(m.span() for m in _WORD.finditer(text))
    if HAN_RE.search(text):
        found = _chinese_words(text, found)
    if found or not text.strip():
        return found
    start = len(text) - len(text.lstrip())
    return ((start, len(text.rstrip())),)


def _chinese_words(text: str, found: tuple[Span, ...]) -> tuple[Span, ...]:
    """`found` with each run of Han characters (one span a character) as its segmented words."""
    from core.extraction.offline.segment import zh_word_spans

    spans = [s for s in found if not HAN_RE.match(text, s[0])]
    for run in _HAN_RUN.finditer(text):
        spans += [(run.start() + a, run.start() + b) for a, b in zh_word_spans(run.group())]
    return tuple(sorted(spans))


@lru_cache(maxsize=512)
def sentences(text: str) -> tuple[Span, ...]:
    from core.extraction.offline.sentences import split_sentences

    lang = "zh" if HAN_RE.search(text) else "en"
    return tuple(split_sentences(text, lang)) or words(text)[:1]


def paragraph_span(text: str) -> Span:
    """The whole paragraph but the white space around it."""
    start = len(text) - len(text.lstrip())
    return (start, len(text.rstrip())) if text.strip() else (0, 0)


@dataclass(frozen=True, slots=True)
class Selection:
    """From `start` to `end` (exclusive), both (paragraph index, offset)."""

    start: Point
    end: Point

    def part(self, index: int, text: str) -> Span | None:
        """The selected span of paragraph `index` (None: none of it is selected)."""
        if not self.start[0] <= index <= self.end[0]:
            return None
        a = self.start[1] if index == self.start[0] else paragraph_span(text)[0]
        b = self.end[1] if index == self.end[0] else paragraph_span(text)[1]
        return (a, b) if b > a else None

    def parts(self, text: Text) -> list[tuple[int, Span]]:
        out: list[tuple[int, Span]] = []
        for index in range(self.start[0], self.end[0] + 1):
            body = text(index)
            span = self.part(index, body) if body is not None else None
            if span is not None:
                out.append((index, span))
        return out


def word_selection(index: int, text: str, word: int) -> Selection | None:
    spans = words(text)
    if not spans:
        return None
    a, b = spans[max(0, min(word, len(spans) - 1))]
    return Selection((index, a), (index, b))


def _after(spans: tuple[Span, ...], offset: int) -> Span | None:
    """The first span that ends after `offset`."""
    return next((s for s in spans if s[1] > offset), None)


def _before(spans: tuple[Span, ...], offset: int, floor: int) -> Span | None:
    """The last span that ends before `offset` and after `floor`."""
    return next((s for s in reversed(spans) if floor < s[1] < offset), None)


def _grow(sel: Selection, text: Text, unit: Callable[[str], tuple[Span, ...]]) -> Selection:
    """The end moves to the end of the next unit (word or sentence), into the next paragraph
    when this one has no more."""
    index, offset = sel.end
    body = text(index)
    nxt = _after(unit(body), offset) if body is not None else None
    if nxt is not None:
        return Selection(sel.start, (index, nxt[1]))
    following = text(index + 1)
    spans = unit(following) if following is not None else ()
    return Selection(sel.start, (index + 1, spans[0][1])) if spans else sel


def _shrink(sel: Selection, text: Text, unit: Callable[[str], tuple[Span, ...]]) -> Selection:
    """The end moves back to the end of the unit before it; never before the first word."""
    index, offset = sel.end
    body = text(index) or ""
    floor = sel.start[1] if index == sel.start[0] else paragraph_span(body)[0]
    prev = _before(unit(body), offset, floor)
    if prev is not None:
        return Selection(sel.start, (index, prev[1]))
    if index > sel.start[0]:
        above = text(index - 1) or ""
        return Selection(sel.start, (index - 1, paragraph_span(above)[1]))
    first = _after(words(body), sel.start[1])
    return Selection(sel.start, (index, first[1])) if first is not None and first[1] < offset else sel


def by_word(sel: Selection, text: Text, direction: int) -> Selection:
    return _grow(sel, text, words) if direction > 0 else _shrink(sel, text, words)


def by_sentence(sel: Selection, text: Text, direction: int) -> Selection:
    """Growing first widens the selection to whole sentences, then adds the next one."""
    if direction < 0:
        return _shrink(sel, text, sentences)
    body = text(sel.start[0]) or ""
    own = _after(sentences(body), sel.start[1])
    start = (sel.start[0], min(own[0], sel.start[1])) if own is not None else sel.start
    end_body = text(sel.end[0]) or ""
    cover = _after(sentences(end_body), sel.end[1] - 1)
    end = max((sel.end[0], cover[1]) if cover is not None else sel.end, sel.end)
    widened = Selection(start, end)
    return widened if widened != sel else _grow(sel, text, sentences)


def by_paragraph(sel: Selection, text: Text, direction: int) -> Selection:
    """Growing widens to whole paragraphs, then adds the next; shrinking drops the last one."""
    start_body = text(sel.start[0]) or ""
    start = (sel.start[0], paragraph_span(start_body)[0])
    if direction < 0:
        if sel.end[0] == sel.start[0]:
            return sel
        above = text(sel.end[0] - 1) or ""
        return Selection(sel.start, (sel.end[0] - 1, paragraph_span(above)[1]))
    end_body = text(sel.end[0]) or ""
    whole = paragraph_span(end_body)[1]
    if sel.end[1] < whole or start != sel.start:
        return Selection(start, (sel.end[0], whole))
    following = text(sel.end[0] + 1)
    if following is None or not words(following):
        return sel
    return Selection(start, (sel.end[0] + 1, paragraph_span(following)[1]))


def word_index(text: str, offset: int) -> int:
    """The word under or after `offset` (the last word past the end)."""
    spans = words(text)
    for i, (_, b) in enumerate(spans):
        if b > offset:
            return i
    return max(0, len(spans) - 1)
