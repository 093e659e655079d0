"""A card's context line: where it comes from, in one short line (issue 30).

"Photosynthesis › Light reactions › Water splitting": the article's title, then the place of the
paragraph the unit's first quote is in (its locator: an EPUB chapter, the heading path, a PDF
page). A card read a month later says where it comes from. This is the one place the line is
made: Review, Triage, the Article's unit card and every export (Anki's Context field, the
Markdown file, the CSV column) call `context_line`; the JSON library file leaves it derivable.

Short: at most CONTEXT_WIDTH characters. A long heading path loses its outer headings first
("Title › … › Section"): the innermost heading says most about a card, the title says which
article. Only when the title and the innermost heading alone are too long are they cut at
their ends.

Sanitised: one line, every run of whitespace (newlines, tabs) one space. Its parts are stored
text, which passed the ingestion rule (core.text.replace_controls) when read; like any untrusted
text it still goes through the display gate where it is shown (tui/safe.py, the exports' own
escaping), which the domain cannot import (core.domain and core.text are separate layers).
"""

from __future__ import annotations

import re

from core.domain import Locator

CONTEXT_WIDTH = 80
SEPARATOR = " › "
GAP = "…"  # where outer headings were left out
MIN_TITLE = 24  # the title keeps at least this much when the innermost heading is long
# A title that is a file name: no spaces, a reader's suffix (core.ingest.reader.SUPPORTED_SUFFIXES;
# tests/test_context_line.py checks the two agree). Titles made from a file name at import are its
# stem already (core.ingest.document.title_from_path): "notes_2024" from notes_2024.md.
_FILE_SUFFIX = re.compile(r"\.(?:txt|md|markdown|html?|xhtml|rst|epub|pdf|docx)$", re.IGNORECASE)


def one_line(text: str) -> str:
    """Every run of whitespace (newlines and tabs too) one space; no space at the ends."""
    return " ".join(str(text).split())


def readable_title(title: str) -> str:
    """A title as a reader reads it. One that is a file name ("notes_2024.md", or "notes_2024",
    which is what an import makes of a file without a title of its own) loses its suffix and its
    underscores become spaces: "notes 2024". A title with spaces in it is the author's: kept."""
    line = one_line(title)
    if not line or " " in line:
        return line
    stem = _FILE_SUFFIX.sub("", line) or line
    return one_line(stem.replace("_", " ")) or line


def context_line(title: str, locator: Locator | None = None, width: int = CONTEXT_WIDTH) -> str:
    """ "Title › Chapter › Heading › Subheading › p. 4", at most `width` characters: the article's
    title and where the paragraph sits. No locator (plain text) or an empty one: the title alone."""
    head = readable_title(title) or "Untitled"
    path = _path(head, locator)
    page = [f"p. {locator.page}"] if locator is not None and locator.page is not None else []
    for left_out in range(max(1, len(path))):
        line = SEPARATOR.join([head, *([GAP] if left_out else []), *path[left_out:], *page])
        if len(line) <= width:
            return line
    gap, inner = [GAP] if len(path) > 1 else [], path[-1:]
    rest = SEPARATOR.join([*gap, *inner, *page])
    if not rest:
        return _cut(head, width)
    head = _cut(head, max(MIN_TITLE, width - len(SEPARATOR) - len(rest)))
    if inner:  # what is left for the innermost heading, the page kept at the end
        others = len(SEPARATOR.join([head, *gap, "", *page]))
        inner = [_cut(inner[0], max(1, width - others))]
    return _cut(SEPARATOR.join([head, *gap, *inner, *page]), width)


def _path(title: str, locator: Locator | None) -> list[str]:
    """The chapter and headings, outermost first, read under the title (Locator.path: a part
    that repeats the one before it, or the title, once)."""
    return locator.path(under=title) if locator is not None else []


def _cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, cut at its end with "…"."""
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)].rstrip() + GAP
