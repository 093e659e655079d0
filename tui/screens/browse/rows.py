"""How a Browse row is drawn: its cells, in the table's column order.

Every cell is a `tui.safe.cell` (plain `rich.text.Text`, sanitised: the text is untrusted), the
kind RowTable draws straight into a line. The short, often repeated ones (type, status, state,
dates, numbers, the article's title) are made once and shared: a page is 100 rows of 15 cells,
and sanitising each again cost a third of showing a page.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from core.domain.browse import BrowseRow
from tui.safe import cell

MARK = "sel"  # the key of the picked-mark column


@lru_cache(maxsize=4096)
def _shared(text: str) -> Text:
    """A cell for a short, repeated text, made once (cells are never changed in place)."""
    return cell(text)


def cut(text: str, width: int) -> str:
    """At most `width` terminal cells of `text` (a Chinese character takes two: cutting by
    characters let a Chinese row's content push every other column off the screen)."""
    text = text[:width]
    return text if cell_len(text) <= width else set_cell_size(text, width).rstrip(" ")


def _day(epoch: int | None) -> str:
    return datetime.fromtimestamp(epoch).strftime("%Y-%m-%d") if epoch is not None else ""


def _num(value: float | None, fmt: str) -> str:
    return format(value, fmt) if value is not None else ""


def mark(picked: bool) -> Text:
    """The picked-mark cell."""
    return _shared("●" if picked else " ")


def cells(row: BrowseRow, picked: bool) -> list[object]:
    """The row's cells, in column order (text through the gate: it is untrusted)."""
    return [
        mark(picked),
        cell(cut(row.unit_content, 48)),
        _shared(cut(f"→ {row.deck_title}" if row.deck_id is not None else row.article_title, 20)),  # the deck
        _shared(row.memory_type),
        _shared(row.status + (" (source changed)" if row.source_changed else "")),
        _shared(row.state + (" · leech" if row.leech else "") + (" · pinned" if row.pinned else "")),
        _shared(_day(row.due) if row.state not in ("", "new") else ""),
        _shared(_num(row.retrievability, ".2f")),
        _shared(_num(row.stability, ".1f")),
        _shared(_num(row.difficulty, ".1f")),
        _shared(str(row.lapses) if row.lapses is not None else ""),
        _shared(str(row.reps) if row.reps is not None else ""),
        cell(cut(", ".join(row.tags), 24)),
        _shared(row.origin),
        _shared(_day(row.added)),
    ]
