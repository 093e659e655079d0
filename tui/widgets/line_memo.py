"""Textual's styling of a widget's lines, kept for lines that come back, and a scrollbar that uses it.

Textual styles each line a widget draws (the widget's tint, opacity, the app's line filters)
in its StylesCache, keyed by the line's y. A one-row scroll of a table moves every line to
another y, so each is styled again as a new Strip, and the line filters, cached on the Strip,
run again too: for Browse's 40 lines that was 5 ms of a 14 ms cursor move, and the scrollbar
beside it, drawn through rich as a renderable, another 4.6 ms.

`StyledLines` keeps each styled line by the identity of the line the widget drew (the widget's
own line cache returns the same Strip for a row wherever it is on screen): a line seen before
is styled once, and its filtered copy (cached on that Strip by Textual) is reused too. Only a
widget without padding or outline takes this path (each line between its border's top and
bottom is styled the same whatever its y; the border's own lines, a title on them, are drawn
by Textual's path); any other styling is left to Textual. The styling itself is Textual's
own (`StylesCache.render_line`), so the picture is the same either way; for a widget with no
tint, opacity or hatch it is done here the way Textual does it (`_Sides`: the line padded in
the background, the border's side cells around it, taken from Textual's styling of one blank
line), ~0.1 ms a line less (a page down styles 44; tests/tui/test_paragraph_styling.py).

`QuickScrollBar` is Textual's ScrollBar whose vertical bar is drawn a cell at a time from the
segments Textual's own `ScrollBarRender.render_bar` makes, each kind of cell (track above,
thumb, its ends, track below) a Strip made once, styled through `StyledLines`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget


class StyledLines:
    """A widget's lines styled by Textual, kept by the identity of the line the widget drew."""

    def __init__(self, maxsize: int) -> None:
        # id(raw line) -> (the raw line, kept so its id is not reused, the styled line)
        self._lines: LRUCache[int, tuple[Strip, Strip]] = LRUCache(maxsize)
        self._context: object = None
        self._sides: _Sides | None = None  # a content line's border cells, for the look kept

    def clear(self) -> None:
        self._lines.clear()
        self._sides = None

    def render(self, widget: Widget, crop: Region, render_line: Callable[[int], Strip]) -> list[Strip] | None:
        """The lines of `crop` as `Widget.render_lines` makes them, or None when the widget has
        padding or an outline (its lines depend on their y: Textual's path draws them). A
        border's top and bottom lines (a title, a subtitle) are drawn by Textual's path; the
        lines between depend only on the line the widget drew (`render_line`, by content y)."""
        if not self._usable(widget):
            return None
        size, (top, bottom) = widget.region.size, _edges(widget)
        strips: list[Strip] = []
        filters = widget.get_line_filters()
        background = widget.background_colors[1]
        for y in crop.line_range:
            if y < top or y >= size.height - bottom:  # a border line: Textual's, filters and all
                strips.append(Widget.render_lines(widget, Region(0, y, size.width, 1))[0])
                continue
            strip = self._styled(widget, render_line(y - top), y)
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            strips.append(strip)
        if crop.column_span != (0, size.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def style_ahead(self, widget: Widget, lines: list[Strip]) -> None:
        """Style these content lines now (they are drawn later: the next page), unfiltered."""
        if self._usable(widget):
            y = _edges(widget)[0]  # a content line's y: the styling of every one is the same
            for line in lines:
                self._styled(widget, line, y)

    def _usable(self, widget: Widget) -> bool:
        """No padding, outline or hovered link (then each line's styling depends on its y), and
        the kept lines still styled as the widget looks now (or none kept)."""
        styles = widget.styles
        if styles.padding or any(edge for edge, _ in styles.outline) or _hovered_link(widget):
            return False
        app = widget.app
        base_background, background = widget.background_colors
        hatch = styles.hatch if styles.has_rule("hatch") else None
        context = (
            widget.region.size,
            base_background,
            background,
            widget.opacity,
            styles.tint,
            styles.text_opacity,
            hatch,
            styles.border,  # its colours change with focus
            app.ansi_theme,
            app.native_ansi_color,
        )
        if context != self._context:  # another look: none of the styled lines is right any more
            self.clear()
            self._context = context
        return True

    def _styled(self, widget: Widget, raw: Strip, y: int) -> Strip:
        """`raw` (a content line) styled by Textual as the line at `y` (kept by its identity)."""
        kept = self._lines.get(id(raw))
        if kept is not None and kept[0] is raw:
            return kept[1]
        strip = self._style(widget, raw, y)
        self._lines.set(id(raw), (raw, strip))
        return strip

    def _style(self, widget: Widget, raw: Strip, y: int) -> Strip:
        """A line not kept, styled: here when the widget's look allows (_Sides), else by Textual."""
        if self._sides is None:
            self._sides = _Sides.of(widget, y, partial(self._textual, widget))
        return self._sides.style(raw) if self._sides.plain else self._textual(widget, raw, y)

    @staticmethod
    def _textual(widget: Widget, raw: Strip, y: int) -> Strip:
        """Textual's styling of the content line `raw` at `y` (StylesCache.render_line)."""
        styles, app = widget.styles, widget.app
        base_background, background = widget.background_colors
        return widget._styles_cache.render_line(
            styles,
            y,
            widget.region.size,
            widget.content_region.size,
            styles.padding,
            base_background,
            background,
            partial(_same, raw),
            None,
            None,
            widget.opacity,
            app.ansi_theme,
            app.native_ansi_color,
        )


class _Sides:
    """What Textual's styling does to a content line of a widget with no tint, opacity, text
    opacity or hatch (and no padding or outline, as StyledLines asks): it pads the line to the
    content width in the widget's background and puts the border's left and right cells on
    either side. Those cells are taken from Textual's own styling of one blank line, so the
    picture is Textual's; a line styled here costs a list and a Strip, not the ~0.1 ms of
    StylesCache.render_line's look-ups (44 new lines a page down)."""

    def __init__(
        self, plain: bool, left: list[Segment], right: list[Segment], width: int, pad: Style | None
    ) -> None:
        self.plain = plain  # styled here (else by Textual, line by line)
        self._left, self._right = left, right
        self._width, self._content_width = width, width - len(left) - len(right)
        self._pad = pad

    @classmethod
    def of(cls, widget: Widget, y: int, textual: Callable[[Strip, int], Strip]) -> _Sides:
        styles = widget.styles
        hatch = styles.hatch if styles.has_rule("hatch") else None
        plain = (
            not styles.tint.a
            and widget.opacity == 1.0
            and styles.text_opacity == 1.0
            and (hatch is None or hatch == "none")
        )
        width, content_width = widget.region.size.width, widget.content_region.size.width
        base_background, background = widget.background_colors
        pad = widget._styles_cache.get_inner_outer(base_background, background)[0].rich_style
        (_, (right_edge, _), _, (left_edge, _)) = styles.border
        blank = list(textual(Strip.blank(content_width, pad), y))
        left = blank[:1] if left_edge else []
        right = blank[-1:] if right_edge else []
        plain = plain and len(left) + len(right) + content_width == width
        return cls(plain, left, right, width, pad)

    def style(self, raw: Strip) -> Strip:
        line = raw.adjust_cell_length(self._content_width, self._pad)
        return Strip([*self._left, *line, *self._right], self._width)


def _edges(widget: Widget) -> tuple[int, int]:
    """The lines of the widget's border above and below its content (0 or 1 each)."""
    (top, _), _, (bottom, _), _ = widget.styles.border
    return int(bool(top)), int(bool(bottom))


def _same(line: Strip, _y: int) -> Strip:
    """`line`, for any y: the line StylesCache.render_line is to style."""
    return line


def _hovered_link(widget: Widget) -> bool:
    """The mouse is over a clickable link of the widget (Textual restyles the link's lines)."""
    hover = widget.hover_style
    return bool(widget.auto_links and hover.link_id and "@click" in hover.meta)


class QuickScrollBar(ScrollBar):
    """Textual's ScrollBar; the vertical one drawn a cell at a time from kept lines."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._styled = StyledLines(64)
        # (a bar cell, the style under it) -> its line, the same Strip each time
        self._cells: dict[tuple[Segment, Style], Strip] = {}

    def notify_style_update(self) -> None:
        self._styled.clear()
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        renderable = self.render()
        if (
            not self.vertical
            or not isinstance(renderable, ScrollBarRender)
            or not isinstance(renderable.style, Style)
        ):
            return super().render_lines(crop)
        width, height = self.size
        bar = renderable.render_bar(
            size=height,
            virtual_size=renderable.virtual_size,
            window_size=renderable.window_size,
            position=renderable.position,
            thickness=width,
            vertical=True,
            back_color=renderable.style.bgcolor or Color.parse("#555555"),
            bar_color=renderable.style.color or Color.parse("bright_magenta"),
        )
        cells = [segment for segment in bar.segments if segment.text != "\n"]
        if len(cells) != height:
            return super().render_lines(crop)
        if len(self._cells) > 256:  # every colour the bar has taken (hover, grab, themes): a few
            self._cells.clear()

        base = self.visual_style.rich_style  # what Textual's render through rich puts under the bar

        def line(y: int) -> Strip:
            cell = cells[y]
            strip = self._cells.get((cell, base))
            if strip is None:
                text, style, _ = cell
                strip = self._cells[cell, base] = Strip([Segment(text, base + style)], width)
            return strip

        return self._styled.render(self, crop, line) or super().render_lines(crop)
