"""A paragraph as the view draws it: its reader text styled (reader_text), and which character
of the text a cell of its wrapped lines shows (char_at), for the mouse.

The view draws a paragraph as Content of the sanitised text (tui/safe.styled: control
characters out, a tab as four spaces) wrapped by Textual's Content at the text column's width.
char_at retraces exactly that: the same sanitising, character by character, Content's own
line breaking (rich._wrap.divide_line, what Content.render_strips calls for text-wrap: wrap,
overflow: fold, the view's styles) and cell widths (a CJK character takes two cells). The map is
kept for the few paragraphs on screen (a drag asks for the same ones again and again).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from rich._wrap import divide_line  # what Textual's Content wraps with (its content.py)
from rich.cells import cell_len
from textual.content import Content
from textual.style import Style

from core.domain import SourceParagraph
from core.text import sanitize
from tui.safe import SPAN_STYLES, styled

HEADING_STYLE = "bold"


def reader_text(para: SourceParagraph, overlay: Sequence[tuple[int, int, str | Style]] = ()) -> Content:
    """A paragraph as a reader sees it: its text (data, never markup) with emphasis, links,
    code and images styled from its spans, a heading in bold, and `overlay` (offsets of the
    text: quotes, the selection, the cursor) over them."""
    spans: list[tuple[int, int, str | Style]] = [
        (s.start, s.end, SPAN_STYLES.get(s.kind, "")) for s in para.spans
    ]
    if para.kind == "heading":
        spans.insert(0, (0, len(para.text), HEADING_STYLE))
    return styled(para.text, [*spans, *overlay])


@lru_cache(maxsize=64)
def _layout(text: str, width: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each drawn line as the raw offsets of its characters (a wide one once per cell), and the
    raw offset where each drawn line starts."""
    drawn: list[str] = []
    raw_of: list[int] = []  # raw offset of each drawn character
    for i, ch in enumerate(text):
        for out in sanitize(ch):  # sanitising works character by character (tui/safe.styled)
            drawn.append(out)
            raw_of.append(i)
    plain = "".join(drawn)
    cells: list[tuple[int, ...]] = []
    starts: list[int] = []
    base = 0
    for line in plain.split("\n"):
        cuts = [0, *divide_line(line, width, fold=True), len(line)]
        for a, b in pairwise(cuts):
            if a == b and len(cuts) > 2:
                continue
            row: list[int] = []
            for k in range(base + a, base + b):
                row.extend([raw_of[k]] * max(1, cell_len(plain[k])))
            cells.append(tuple(row))
            starts.append(raw_of[base + a] if base + a < len(raw_of) else len(text))
        base += len(line) + 1  # the newline
    return tuple(cells), tuple(starts)


def char_at(text: str, width: int, line: int, x: int) -> int:
    """The raw offset of the character drawn at cell `x` of wrapped line `line` of `text` in a
    column `width` cells wide: past a line's end, its last character; below the last line (the
    blank line after a paragraph), the text's end."""
    if not text:
        return 0
    cells, starts = _layout(text, max(1, width))
    if line >= len(cells):
        return len(text)
    row = cells[max(0, line)]
    if not row:
        return starts[max(0, line)]
    return row[max(0, min(x, len(row) - 1))]
