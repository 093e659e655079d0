"""What every reader produces: blocks of reader text in order, each knowing where it is.

A `Block` is one future paragraph (kind, text, spans, locator). `Sections` keeps the heading
path while a reader walks its document. document.document_from_blocks numbers the blocks into
the stable paragraphs p_001... of a SourceDocument.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.domain import NO_LOCATOR, InlineSpan, Locator


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  # paragraph, heading, list, quote, code, table, contents
    text: str
    spans: tuple[InlineSpan, ...] = ()
    locator: Locator = NO_LOCATOR
    level: int = 0  # a heading's level (1 = top)


class Sections:
    """The heading path: a heading of level L closes the open headings of level L and deeper.

    `locator` is shared by every block of one section (one object, so storing it is cheap)."""

    def __init__(self, *, page: int | None = None, chapter: str | None = None) -> None:
        self._stack: list[tuple[int, str]] = []
        self._page = page
        self._chapter = chapter
        self.locator = Locator((), page, chapter)

    def heading(self, level: int, title: str) -> Locator:
        """Enter a heading; returns its locator (the path including it)."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        if title and not (not self._stack and title == self._chapter):  # a chapter's own title
            self._stack.append((level, title))
        self._renew()
        return self.locator

    def at_page(self, page: int | None) -> None:
        if page != self._page:
            self._page = page
            self._renew()

    def in_chapter(self, chapter: str | None) -> None:
        """A new chapter (EPUB): its headings start afresh."""
        self._stack.clear()
        self._chapter = chapter
        self._renew()

    def _renew(self) -> None:
        self.locator = Locator(tuple(t for _, t in self._stack), self._page, self._chapter)


def one_line(text: str) -> str:
    """A title or heading as one line of text (line breaks and runs of spaces folded)."""
    return " ".join(text.split())


# One entry of a table of contents or an index: a leader, then a page number that ends its line
# ("Introduction . . . . . . 1", "Preface.........xi", "第一章 引言………… 1"). A leader is six
# dots or more, one space at most between two (". . ." and "...." are prose's ellipses: "Well
# . . . . I suppose"), or three ellipsis characters or more (Chinese prose writes two: "他说……
# 好吧"); it is matched from its first dot only and never given back (possessive), so a run of
# 100k dots costs one pass, not a pass from each of its dots. A page number is arabic or a small
# lower-case roman (i to xxxix: front matter), and the line ends there: prose goes on ("I
# waited...... 10 minutes", "3.... 2.... 1...." is a count). A block of one entry, which a
# sentence could end like ("The answer is ...... 42"), needs a long leader (SINGLE_LEADER).
_DOTS = ".·．・"
_ELLIPSES = "…⋯"
_ROMAN = r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})"
_ENTRY = (
    rf"(?<![{_DOTS}{_ELLIPSES}])(?<![{_DOTS}{_ELLIPSES}] )"
    rf"(?P<leader> ?(?:[{_DOTS}] ?){{6,}}+|[{_ELLIPSES}]{{3,}}+)[ \t]*+(?:\d{{1,5}}|{_ROMAN})(?=[ \t]*(?:\n|$))"
)
_ENTRIES = re.compile(_ENTRY)
SINGLE_LEADER = (8, 5)  # dots, or ellipsis characters, of a block's only entry


def contents_text(lines: Iterable[str]) -> str:
    """A contents block's text: an entry a line, as printed (each line one line of text)."""
    return "\n".join(filter(None, map(one_line, lines)))


def _may_hold_a_leader(text: str) -> bool:
    """What every leader of _ENTRY holds (two ASCII dots, with a space between or not; or one of
    the other characters of _DOTS and _ELLIPSES, each named here: a new leader character goes
    in both): most text fails these substring tests and meets no regex
    (28-36 ms per 100k paragraphs with the call; the regex alone would take 850)."""
    return (
        ".." in text
        or ". ." in text
        or "·" in text
        or "．" in text
        or "・" in text
        or "…" in text
        or "⋯" in text
    )


def is_contents(text: str) -> bool:
    """A table of contents or an index set as text (a PDF's, a Word file's, a plain text's),
    read with its line breaks: two entries or more, or one with a long leader that ends the
    block. Such a block is kind "contents": never a heading (its lines would head every section
    after it), never evidence."""
    if not _may_hold_a_leader(text):
        return False
    entries = list(_ENTRIES.finditer(text))
    if len(entries) != 1:
        return len(entries) > 1
    only = entries[0]
    leader = only.group("leader")
    dots, ellipses = SINGLE_LEADER
    long = sum(c in _DOTS for c in leader) >= dots or sum(c in _ELLIPSES for c in leader) >= ellipses
    return long and not text[only.end() :].strip()
