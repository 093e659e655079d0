"""A DataTable with a row cursor that draws each line straight from its cells and keeps it.

Textual's DataTable renders every cell through rich's console (about 0.1 ms a cell) and keys its
line caches by the cursor position and a table-wide update count that every `add_row` and
`update_cell` bumps: each cursor move re-renders every visible row and each page of rows added
below re-renders the whole window. Browse's 15 columns × 40 lines made that 150-250 ms a page.

Here, with a row cursor, no fixed rows or columns and one-line plain cells (what `tui.safe.cell`
makes), a line is built directly: one Segment per cell, the text cut to the column (with "…") or
padded to it, in the style DataTable would give it. Lines are cached by what they show: the
row's stamp (a fresh number each time the row is added or one of its cells updated, so a row
re-added after `clear()` under the same key is never served stale), its index (zebra stripe,
the click metadata), whether it is the cursor or hover row, and the frame (widths, styles). A
cursor move then draws two lines; a page added below draws none of the visible ones. Any other
table or row takes DataTable's own path; the picture is the same either way
(tests/tui/test_row_table.py compares them).

A scroll moves every line to another y, and Textual styles (tint, line filters) by y: the lines
are styled through tui.widgets.line_memo.StyledLines, which keeps each styled line by the line
drawn here, so a row still on screen after a one-row scroll costs a lookup; the vertical
scrollbar is line_memo's QuickScrollBar (tests/tui/test_line_memo.py: the same screen as a stock
DataTable's, through scrolls, focus, hover and the mouse).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, count
from typing import Any, Self

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual._segment_tools import line_crop
from textual._types import SegmentLines
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.geometry import Offset, Region, Size
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, Column, ColumnKey, RowKey

from tui.widgets.line_memo import QuickScrollBar, StyledLines

ELSEWHERE = Coordinate(-2, 0)  # no row (the header is -1): "the cursor is on another row"


@dataclass(frozen=True)
class Frame:
    """What every line of one paint shares, worked out once per paint instead of once per line
    (a reactive read costs microseconds; a paint asks for every visible line)."""

    base_style: Style
    columns: tuple[Column, ...]
    widths: tuple[int, ...]  # each column's render width, padding included
    width: int  # the widget's
    scroll: Offset
    top: int  # the lines that do not scroll (the header)
    cursor_row: int
    hover_row: int
    fast: bool  # the table's shape allows building lines directly
    stripes: tuple[Style, Style]  # the even and odd rows' style (when fast)
    look: int  # a number for everything else a line's look depends on (styles, widths, flags)


class RowTable(DataTable[object]):
    """A row-cursor DataTable whose lines survive cursor moves and new rows (same API)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # With the cursor out of the keys a few screenfuls of rows is all a cache needs to hold;
        # DataTable's 10,000 rendered cells keep the garbage collector busy (pauses of 50 ms+).
        self._cell_render_cache.maxsize = 1000
        self._row_render_cache.maxsize = 300
        self._line_cache.maxsize = 300
        self._lines: LRUCache[tuple[object, ...], Strip] = LRUCache(400)
        self._stamps: dict[RowKey, int] = {}
        self._stamp = count(1)
        self._looks: dict[tuple[object, ...], int] = {}
        self._styled = StyledLines(400)

    _frame: Frame | None = None
    _painted_layout: tuple[Size, Size] | None = None  # (size, virtual size) of the last paint

    # --- what invalidates a line -------------------------------------------------------------

    def add_row(
        self, *cells: CellType, height: int | None = 1, key: str | None = None, label: Any = None
    ) -> RowKey:
        row_key = super().add_row(*cells, height=height, key=key, label=label)
        self._stamps[row_key] = next(self._stamp)
        return row_key

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: CellType,
        *,
        update_width: bool = False,
    ) -> None:
        super().update_cell(row_key, column_key, value, update_width=update_width)
        self._stamps[RowKey(row_key) if isinstance(row_key, str) else row_key] = next(self._stamp)

    def remove_row(self, row_key: RowKey | str) -> None:
        super().remove_row(row_key)
        self._stamps.pop(RowKey(row_key) if isinstance(row_key, str) else row_key, None)

    def cursor_key(self) -> str | None:
        """The key of the row under the cursor (None: the table has no rows)."""
        if not self.row_count:
            return None
        return str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)

    def clear(self, columns: bool = False) -> Self:
        self._stamps.clear()  # the lines drawn stay: rows added again get new stamps (the header stays)
        return super().clear(columns)

    def notify_style_update(self) -> None:
        self._lines.clear()  # a theme change: the cursor and stripe colours are new
        self._styled.clear()
        super().notify_style_update()

    # --- layout ------------------------------------------------------------------------------

    def measure_new_rows(self) -> None:
        """Fit the columns to the rows just added now rather than when idle (DataTable's way),
        so the first paint already has its final layout and need not be redone."""
        if self._require_update_dimensions:
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        # A plain one-line cell is as wide as its text (what rich's measure says, at about 20 µs a
        # cell); rows with anything else (a label, auto height, other cells) are measured by
        # DataTable, which then also works out the virtual size.
        others: list[RowKey] = []
        columns = self.ordered_columns
        for row_key in new_rows:
            row, data = self.rows.get(row_key), self._data.get(row_key)
            if row is None or data is None:
                continue
            values = [data.get(column.key) for column in columns]
            if row.label is not None or row.auto_height or not all(_plain_line(v) for v in values):
                others.append(row_key)
                continue
            for column, value in zip(columns, values, strict=True):
                assert isinstance(value, Text)
                column.content_width = max(column.content_width, cell_len(value.plain))
        super()._update_dimensions(others)

    def on_resize(self, event: events.Resize) -> None:
        # DataTable drops every cached row on any Resize, including the first one after mount,
        # which arrives after the first paint with the very layout it was painted at: the table
        # painted twice. A Resize to another layout still drops them (DataTable's handler).
        if (event.size, self.virtual_size) == self._painted_layout:
            event.prevent_default()

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """Textual's (Widget.vertical_scrollbar), drawn from kept lines (tui.widgets.line_memo)."""
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = QuickScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            self._vertical_scrollbar.display = False
            self.app._start_widget(self, self._vertical_scrollbar)
        return self._vertical_scrollbar

    # --- painting ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pseudo_class_state = self.get_pseudo_class_state()
        self._frame = self._make_frame(self.rich_style)
        self._painted_layout = (self.size, self.virtual_size)
        try:
            return self._styled.render(self, crop, self.render_line) or super().render_lines(crop)
        finally:
            self._frame = None

    def _make_frame(self, base_style: Style) -> Frame:
        columns = tuple(self.ordered_columns)
        widths = tuple(column.get_render_width(self) for column in columns)
        fast = (
            self.cursor_type == "row"
            and not self.fixed_rows
            and not self.fixed_columns
            and not (self._labelled_row_exists and self.show_row_labels)
        )
        width = self.size.width
        look = (
            base_style,
            widths,
            tuple(column.label.plain for column in columns),
            width,
            self._pseudo_class_state,
            self.cursor_type,
            self.show_cursor,
            self._show_hover_cursor,
            self.zebra_stripes,
            self.cell_padding,
            self.cursor_foreground_priority,
            self.cursor_background_priority,
        )
        if look not in self._looks:
            if len(self._looks) > 64:  # themes, sizes and focus states seen: a few; never reused
                self._looks.clear()
            self._looks[look] = next(self._stamp)
        top = self.header_height if self.show_header else 0
        for index in range(self.fixed_rows):
            key = self._row_locations.get_key(index)
            if key is not None:
                top += self.get_row_height(key)
        return Frame(
            base_style,
            columns,
            widths,
            width,
            self.scroll_offset,
            top,
            self.cursor_coordinate.row,
            self.hover_coordinate.row,
            fast,
            (self._get_row_style(0, base_style), self._get_row_style(1, base_style))
            if fast
            else (base_style,) * 2,
            self._looks[look],
        )

    def render_line(self, y: int) -> Strip:
        frame = self._frame or self._make_frame(self.rich_style)
        if y >= frame.top:
            y += frame.scroll.y
        x = frame.scroll.x
        return self._render_line(y, x, x + frame.width, frame.base_style)

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        frame = self._frame or self._make_frame(base_style)
        if not frame.fast or frame.base_style != base_style:
            return self._data_table_line(y, x1, x2, base_style)
        try:
            row_key, line_no = self._get_offsets(y)
        except LookupError:
            return Strip.blank(frame.width, base_style)
        index = self._row_locations.get(row_key)
        row = -1 if index is None else index  # None: the header
        cursor, hover = frame.cursor_row == row, frame.hover_row == row
        key = (self._stamps.get(row_key), row, line_no, x1, x2, cursor, hover, frame.look)
        strip = self._lines.get(key)
        if strip is None:
            segments = self._row_segments(row_key, row, cursor, hover, frame) if row >= 0 else None
            if segments is None:  # the header, or a row DataTable must draw
                strip = self._data_table_line(y, x1, x2, base_style)
            else:
                width = frame.width
                strip = (
                    Strip(line_crop(segments, x1, x2, width)).adjust_cell_length(width, base_style).simplify()
                )
            self._lines.set(key, strip)
        return strip

    def _row_segments(
        self, row_key: RowKey, row_index: int, cursor: bool, hover: bool, frame: Frame
    ) -> list[Segment] | None:
        """The row's line, one Segment a cell, styled as DataTable styles it; None if it has
        anything but one-line plain cells."""
        row, data = self.rows.get(row_key), self._data.get(row_key)
        if row is None or data is None or row.height != 1:
            return None
        values = [data.get(column.key) for column in frame.columns]
        padding = self.cell_padding
        if not all(_plain_line(v) for v in values) or min(frame.widths, default=1) - 2 * padding < 1:
            return None
        row_style = frame.stripes[row_index % 2]
        show_cursor, show_hover = self.show_cursor, self._show_hover_cursor
        css_fg, css_bg = self.cursor_foreground_priority == "css", self.cursor_background_priority == "css"
        component, post = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, show_cursor, show_hover, css_fg, css_bg
        )
        style = row_style + component + post
        pad = " " * padding
        segments = [
            Segment(pad + _fit(value.plain, width - 2 * padding) + pad, _with_meta(style, row_index, column))  # type: ignore[union-attr]
            for column, (value, width) in enumerate(zip(values, frame.widths, strict=True))
        ]
        extend, _ = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, show_cursor, show_hover, False, False
        )
        remaining = max(0, frame.width - sum(frame.widths))
        out_of_bounds = Style.from_meta({"row": row_index, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * remaining, row_style + extend + out_of_bounds))
        return segments

    def _data_table_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        # DataTable._render_line with the line cache keyed by what this row sees of the cursor.
        width = self.size.width
        try:
            row_key, y_offset_in_row = self._get_offsets(y)
        except LookupError:
            return Strip.blank(width, base_style)
        cursor = self._seen_from(row_key, self.cursor_coordinate)
        hover = self._seen_from(row_key, self.hover_coordinate)
        cache_key = (
            y,
            x1,
            x2,
            width,
            cursor,
            hover,
            base_style,
            self.cursor_type,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )
        if cache_key in self._line_cache:
            return self._line_cache[cache_key]
        fixed, scrollable = self._render_line_in_row(
            row_key, y_offset_in_row, base_style, cursor_location=cursor, hover_location=hover
        )
        fixed_width = sum(
            column.get_render_width(self) for column in self.ordered_columns[: self.fixed_columns]
        )
        fixed_line: list[Segment] = list(chain.from_iterable(fixed)) if fixed else []
        scrollable_line: list[Segment] = list(chain.from_iterable(scrollable))
        segments = fixed_line + line_crop(scrollable_line, x1 + fixed_width, x2, width)
        strip = Strip(segments).adjust_cell_length(width, base_style).simplify()
        self._line_cache[cache_key] = strip
        return strip

    def _seen_from(self, row_key: RowKey, where: Coordinate) -> Coordinate:
        """`where` (the cursor or hover position) as far as this row's look depends on it."""
        if self.cursor_type != "row":
            return where
        found = self._row_locations.get(row_key)  # None for the header row
        row_index = -1 if found is None else found
        return where if where.row == row_index else ELSEWHERE

    def _render_line_in_row(
        self,
        row_key: RowKey,
        line_no: int,
        base_style: Style,
        cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[SegmentLines, SegmentLines]:
        return super()._render_line_in_row(
            row_key,
            line_no,
            base_style,
            self._seen_from(row_key, cursor_location),
            self._seen_from(row_key, hover_location),
        )


def _fit(text: str, width: int) -> str:
    """`text` cut to `width` cells with "…", or padded to it (what rich does to such a cell)."""
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, width - 1) + "…"
    return text + " " * (width - length) if length < width else text


@lru_cache(maxsize=8192)
def _with_meta(style: Style, row: int, column: int) -> Style:
    """`style` with the cell's click and hover metadata, as DataTable puts it. Made once: the
    same few styles (stripe, cursor) meet the same window of row numbers paint after paint,
    and making the metadata (a marshalled dict) was a third of drawing a line."""
    return style + Style.from_meta({"row": row, "column": column})


def _plain_line(value: object) -> bool:
    """A Text with no style, no spans and one line, cut with an ellipsis: `tui.safe.cell` output."""
    if not isinstance(value, Text) or value.spans or value.style or value.no_wrap is not True:
        return False
    if value.overflow != "ellipsis" or value.justify not in (None, "default", "left"):
        return False
    plain = value.plain
    return "\n" not in plain and "\t" not in plain
