"""A DataTable with a row cursor that redraws only what a cursor move changes.

Textual's DataTable keys its rendered-row cache by the cursor and hover positions, so every cursor
move (and every scroll that follows one) re-renders every visible row, cell by cell. With a row
cursor a row only looks different when it *is* the cursor (or hover) row, so this subclass hands
each row the real position only if it is that row, and one shared "elsewhere" position otherwise:
the cache then still holds for every other row, and a move re-renders two rows instead of ~30.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual._segment_tools import line_crop
from textual._types import SegmentLines
from textual.coordinate import Coordinate
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets._data_table import CellCacheKey
from textual.widgets.data_table import RowKey

ELSEWHERE = Coordinate(-2, 0)  # no row (the header is -1): "the cursor is on another row"


class RowTable(DataTable[object]):
    """A row-cursor DataTable whose row renders survive cursor moves (same API as DataTable)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # With the cursor out of the keys a few screenfuls of rows is all a cache needs to hold;
        # DataTable's 10,000 rendered cells keep the garbage collector busy (pauses of 50 ms+).
        self._cell_render_cache.maxsize = 1000
        self._row_render_cache.maxsize = 300
        self._line_cache.maxsize = 300

    _frame_style: Style | None = None

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
        for row_key in new_rows:
            index = self._row_locations.get(row_key)
            row = self.rows.get(row_key)
            if index is None or row is None:
                continue
            cells = self._get_row_renderables(index).cells
            if row.label is not None or row.auto_height or not all(_plain_line(c) for c in cells):
                others.append(row_key)
                continue
            for column, value in zip(self.ordered_columns, cells, strict=False):
                assert isinstance(value, Text)
                column.content_width = max(column.content_width, cell_len(value.plain))
        super()._update_dimensions(others)

    _painted_layout: tuple[Size, Size] | None = None  # (size, virtual size) of the last paint

    def on_resize(self, event: events.Resize) -> None:
        # DataTable drops every cached row on any Resize, including the first one after mount,
        # which arrives after the first paint with the very layout it was painted at: the table
        # painted twice. A Resize to another layout still drops them (DataTable's handler).
        if (event.size, self.virtual_size) == self._painted_layout:
            event.prevent_default()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style is worked out once per paint instead of once per line.
        self._frame_style = self.rich_style
        self._painted_layout = (self.size, self.virtual_size)
        try:
            return super().render_lines(crop)
        finally:
            self._frame_style = None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        fixed_height = 0
        for index in range(self.fixed_rows):
            key = self._row_locations.get_key(index)
            if key is not None:
                fixed_height += self.get_row_height(key)
        if self.show_header:
            fixed_height += self.get_row_height(self._header_row_key)
        if y >= fixed_height:
            y += scroll_y
        style = self._frame_style if self._frame_style is not None else self.rich_style
        return self._render_line(y, scroll_x, scroll_x + self.size.width, style)

    def _seen_from(self, row_key: RowKey, where: Coordinate) -> Coordinate:
        """`where` (the cursor or hover position) as far as this row's look depends on it."""
        if self.cursor_type != "row":
            return where
        found = self._row_locations.get(row_key)  # None for the header row
        row_index = -1 if found is None else found
        return where if where.row == row_index else ELSEWHERE

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
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

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        # A one-line, unstyled Text cell (what `tui.safe.cell` makes) is a single segment: the
        # text cut to the column (with "…") or padded to it, in the cell's style. DataTable
        # renders every cell through rich's console (Styled(Padding(...))), about 0.1 ms each:
        # most of a first paint. Anything else takes that path; the result is the same.
        if row_index < 0 or column_index < 0 or self.cursor_type != "row":
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        cache_key: CellCacheKey = (
            row_key,
            column_key,
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )
        cached = self._cell_render_cache.get(cache_key)
        if cached is not None:
            return cached
        row = self.rows.get(row_key) if row_key is not None else None
        cells = self._get_row_renderables(row_index).cells
        value = cells[column_index] if column_index < len(cells) else None
        inner = width - 2 * self.cell_padding
        if row is None or row.height != 1 or not _plain_line(value) or inner < 1:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        assert isinstance(value, Text)
        text = value.plain
        length = cell_len(text)
        if length > inner:
            text = set_cell_size(text, inner - 1) + "…"
        elif length < inner:
            text += " " * (inner - length)
        component_style, post_style = self._get_styles_to_render_cell(
            False,
            False,
            row_index < self.fixed_rows or column_index < self.fixed_columns,
            hover,
            cursor,
            self.show_cursor,
            self._show_hover_cursor,
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        style = base_style + Style.from_meta({"row": row_index, "column": column_index})
        pad = " " * self.cell_padding
        lines = [[Segment(pad + text + pad, style + component_style + post_style)]]
        self._cell_render_cache[cache_key] = lines
        return lines

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


def _plain_line(value: object) -> bool:
    """A Text with no style, no spans and one line, cut with an ellipsis: `tui.safe.cell` output."""
    return (
        isinstance(value, Text)
        and not value.spans
        and not value.style
        and value.no_wrap is True
        and value.overflow == "ellipsis"
        and value.justify in (None, "default", "left")
        and "\n" not in value.plain
        and "\t" not in value.plain
    )
