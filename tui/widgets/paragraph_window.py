"""A virtualised window over an article's paragraphs (5,000+ paragraphs stay instant): the
part of the paragraph view (tui/widgets/paragraph_view.py) that pages, scrolls and draws.

No widget per paragraph: the window keeps the index of the paragraph at the top, fetches pages
of paragraphs on demand, wraps only the ones on screen and renders them as strips. A
paragraph's emphasis, links and code are styled from its spans (reader text: the markup was
rendered away at import); evidence paragraphs get a background; quoted spans inside them are
highlighted; `_marks` (the view's cursor word and selection) are drawn over everything else.

Pages are fetched when the window moves (load, go_to, paging, scrolling, a resize), never
while painting: render_line only reads what is already here, so a failed read is reported by
the screen's fetch (BaseScreen.paragraph_pages), where it can be.

While the reader reads, a worker lays out the page below and the page above and styles their
lines (tui/widgets/lay_out_ahead.py), so a page down draws lines made before the key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Self

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.cache import LRUCache
from textual.content import Content
from textual.events import MouseScrollDown, MouseScrollUp, Resize
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget

from core.domain import SourceParagraph
from tui.safe import find_quote
from tui.widgets.lay_out_ahead import LayOutAhead
from tui.widgets.line_memo import StyledLines
from tui.widgets.paragraph_text import reader_text

PAGE = 64  # paragraphs fetched at a time: a page or two of text, cheap enough for the first paint
KEPT = 1024  # paragraphs' lines kept (the least recently drawn go first): pages and pages of them
STYLED = 600  # lines kept styled: the page on screen and the pages around, several times over
OFFSET = RichStyle.from_meta({"offset": (0, 0)})  # what Visual.to_strips marks a line's start with
Fetch = Callable[[int, int], Sequence[SourceParagraph]]


class ParagraphWindow(Widget):
    """The paragraphs of one article with their ids in a gutter, a cursor paragraph in view."""

    # repaint=False: the code that moves it draws what changed (a reactive's repaint is a
    # refresh of the whole window)
    cursor: reactive[int] = reactive(0, init=False, repaint=False)
    # Reader text has no clickable links (markup off, no @click): Textual's link styling of each
    # laid-out line found nothing to style and cost a sixth of a paragraph's layout.
    auto_links = False

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.count = 0
        self._fetch: Fetch | None = None
        self._pages: dict[int, Sequence[SourceParagraph]] = {}
        self._top = 0
        self._quotes: Mapping[str, Sequence[str]] = {}
        self._cache: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(KEPT)
        self._styled = StyledLines(STYLED)  # Textual's styling of the lines, kept by line
        self._frame: list[Strip] | None = None
        self._painting = False
        self._ahead = LayOutAhead(self)  # the pages around, laid out while the reader reads
        self._background_of: Style | None = None  # the look _background_style was worked out for
        self._background_style = RichStyle()
        self.word = 0  # the cursor's word in the cursor paragraph
        self._rows: list[int] = []  # the paragraph index of each line of the frame

    # --- attributes down ------------------------------------------------------------------

    def load(self, count: int, fetch: Fetch, start: int = 0) -> None:
        """Show `count` paragraphs fetched page by page with `fetch(start, limit)`."""
        self.count = count
        self._fetch = fetch
        self._pages.clear()
        self._cache.clear()
        self._top = 0
        self.word = 0
        self.set_reactive(ParagraphWindow.cursor, 0)
        self.go_to(start)

    def set_evidence(self, quotes: Mapping[str, Sequence[str]], *, at: int | None = None) -> None:
        """Highlight these paragraphs (by id) and, inside them, these quotes; with `at`, move
        the cursor there too (both drawn in one go)."""
        if quotes == self._quotes and at is None:
            return  # the same unit again (its highlight message after a direct call): nothing to redo
        self._quotes = quotes
        if at is not None:
            self._place(at)
        self._redraw()  # cached paragraphs are keyed by their quotes: only the changed ones redraw

    def go_to(self, index: int, *, top: bool = False) -> None:
        """Move the cursor to paragraph `index` and scroll it into view (to the top if asked)."""
        self._place(index, top=top)
        self._redraw()

    def _place(self, index: int, *, top: bool = False) -> None:
        if not self.count:
            return
        index = max(0, min(index, self.count - 1))
        if top:
            self._top = index
        if index != self.cursor:
            self.word = 0
        self.cursor = index
        self._fetch_window()
        self._scroll_to_cursor()

    def index_of(self, paragraph_id: str) -> int | None:
        """The index of the paragraph with this id if its page is fetched (evidence near the
        cursor usually is: no read), else None."""
        for page, rows in self._pages.items():
            for offset, para in enumerate(rows):
                if para.paragraph_id == paragraph_id:
                    return page * PAGE + offset
        return None

    def paragraph_at(self, index: int) -> SourceParagraph | None:
        """The paragraph at `index`, its page fetched if need be, except while painting: then
        only what `_fetch_window` brought is used (a missing one paints blank)."""
        if not 0 <= index < self.count:
            return None
        page = index // PAGE
        if page not in self._pages and self._fetch is not None and not self._painting:
            self._pages[page] = self._fetch(page * PAGE, PAGE)
        rows = self._pages.get(page)
        offset = index % PAGE
        return rows[offset] if rows is not None and offset < len(rows) else None

    def _fetch_window(self) -> None:
        """Fetch the pages the next paint and scroll can need: a screen's height of paragraphs
        (each is at least two lines) around the cursor and the top."""
        if self._fetch is None or not self.count:
            return
        height = self.size.height or self.app.size.height
        first = max(0, min(self._top, self.cursor) - height)
        last = min(self.count - 1, max(self._top, self.cursor) + height)
        for page in range(first // PAGE, last // PAGE + 1):
            if page not in self._pages:
                self._pages[page] = self._fetch(page * PAGE, PAGE)

    @property
    def top(self) -> int:
        return self._top

    # --- keys -----------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        self.go_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self._fetch_window()
        step = max(1, len(self.visible_indices()) - 1)
        self._top = max(0, min(self.count - 1, self._top + direction * step))
        self.go_to(self.cursor + direction * step)

    def action_jump(self, where: int) -> None:
        self.go_to(self.count - 1 if where < 0 else where)

    def text_of(self, index: int) -> str | None:
        para = self.paragraph_at(index)
        return para.text if para is not None else None

    def _repaint(self, indices: set[int]) -> None:
        """Draw again only the lines of these paragraphs (a new cursor word or selection: only
        styles change, so the lines stay where they are): their strips are made again and put
        in place in the frame, which is kept (building the whole frame again was a third of the
        paint after a card's save). The whole window if none is known, or if a paragraph's
        line count changed."""
        rows, frame = self._rows, self._frame
        if frame is None or not rows or len(rows) != len(frame):
            self.refresh()
            return
        regions: list[Region] = []
        y = 0
        while y < len(rows):
            index = rows[y]
            if index not in indices:
                y += 1
                continue
            start = y
            while y < len(rows) and rows[y] == index:
                y += 1
            strips = self._strips(index)
            if len(strips) != y - start:
                self.refresh()
                return
            frame[start:y] = strips
            regions.append(Region(0, start, self.size.width, y - start))
        if regions:
            Widget.refresh(self, *regions)  # not self.refresh: that drops the frame

    def show_subtitle(self, subtitle: Content) -> None:
        """Set the border's subtitle (the cursor's place), drawing only the bottom border line
        again: setting `border_subtitle` refreshes the whole widget, which made every cursor
        move and unit switch render and composite the whole window again."""
        if self._frame is None or not self.size.height:
            self.border_subtitle = subtitle
            return
        self._border_subtitle = subtitle.split()[0]  # what the border_subtitle setter stores
        bottom = self.outer_size.height - 1 - self.content_offset.y  # the line, in content lines
        Widget.refresh(self, Region(-self.content_offset.x, bottom, self.outer_size.width, 1))

    def _redraw(self) -> None:
        """Draw the window again, sending to the screen only the lines whose strips changed: a
        new unit's evidence or a cursor moved in view changes a few paragraphs' lines, and the
        rest of the frame is the same strips (cached by what they show), which Textual need not
        render and composite again (a whole-window refresh was most of a unit switch's paint).
        A scroll changes most lines, and then most are sent."""
        old = self._frame
        if old is None or not self.size.height:
            self.refresh()
            return
        frame, rows = self._build_frame()
        self._frame, self._rows = frame, rows
        regions: list[Region] = []
        for y in range(max(len(old), len(frame))):
            if y < len(old) and y < len(frame) and old[y] is frame[y]:
                continue
            last = regions[-1] if regions else None
            if last is not None and last.bottom == y:  # the line under the last region: one region
                regions[-1] = Region(0, last.y, last.width, last.height + 1)
            else:
                regions.append(Region(0, y, self.size.width, 1))
        if regions:
            Widget.refresh(self, *regions)  # not self.refresh: that drops the frame
        self._ahead.later()

    def style_ahead(self, index: int) -> int:
        """Lay out paragraph `index` and style its lines as a paint would (for the lay-out
        ahead, tui/widgets/lay_out_ahead.py); the number of its lines."""
        strips = self._strips(index)
        self._styled.style_ahead(self, strips)
        return len(strips)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self._top = min(max(0, self.count - 1), self._top + 1)
        self._fetch_window()
        self.refresh()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self._top = max(0, self._top - 1)
        self._fetch_window()
        self.refresh()

    def on_resize(self, event: Resize) -> None:
        # Cached paragraphs are keyed by width: a Resize that keeps the width (the first one
        # after mount, after the first paint) keeps them; only the window is worked out again.
        self._frame = None
        self._fetch_window()
        self._scroll_to_cursor()

    # --- layout and rendering -------------------------------------------------------------

    def _text_width(self) -> tuple[int, int]:
        width = self.size.width
        gutter = min(9, max(0, width // 4))
        return gutter, max(1, width - gutter)

    def _strips(self, index: int) -> list[Strip]:
        """The paragraph's lines (id gutter + wrapped text) plus a blank separator line."""
        width = self.size.width
        is_cursor = index == self.cursor
        para = self.paragraph_at(index)
        found = self._quotes.get(para.paragraph_id) if para is not None else None
        quotes = tuple(found) if found is not None else None
        marks = self._marks(index, para.text) if para is not None else ()
        key = (index, width, is_cursor, quotes, marks, self.visual_style)  # style: a theme change
        strips = self._cache.get(key)
        if strips is not None:
            return strips
        if para is None:
            return [Strip.blank(width)]
        gutter, text_width = self._text_width()
        base = self.get_visual_style("paragraph-view--evidence") if quotes is not None else self.visual_style
        body = reader_text(para, self._overlay(para.text, quotes or (), marks))
        lines = Visual.to_strips(self, body, text_width, None, base, pad=True)
        background = self._background()
        # The id in the gutter is one segment as wide as the gutter: made here, as
        # Visual.to_strips would make it, without its wrapping (a sixth of a paragraph's layout).
        id_style = self.get_visual_style("paragraph-view--cursor-id" if is_cursor else "paragraph-view--id")
        label = f"{para.paragraph_id:<{gutter}}"[:gutter]
        first = [Segment(label, id_style.rich_style + OFFSET)] if gutter else []
        blank = [Segment(" " * gutter, background)] if gutter else []
        strips = [Strip([*(first if i == 0 else blank), *line], width) for i, line in enumerate(lines)]
        strips.append(Strip.blank(width, background))
        self._cache.set(key, strips)
        return strips

    def _background(self) -> RichStyle:
        """`rich_style` (the gutter's and the blank lines' style), worked out again when the
        window's look changes (a new `visual_style`, which the kept paragraphs are keyed by
        too): Textual works it out from every ancestor's styles at each call, a sixth of a
        paragraph's layout."""
        look = self.visual_style
        if self._background_of is not look:
            self._background_of, self._background_style = look, self.rich_style
        return self._background_style

    def _marks(self, index: int, text: str) -> tuple[tuple[str, int, int], ...]:
        """Styles (a component class) over spans of this paragraph's text, drawn on top."""
        return ()

    def _overlay(
        self, text: str, quotes: Sequence[str], marks: Sequence[tuple[str, int, int]]
    ) -> list[tuple[int, int, str | Style]]:
        """Styles over the text's own: the quotes, then the selection and the cursor on top."""
        out: list[tuple[int, int, str | Style]] = []
        quote_style = self.get_visual_style("paragraph-view--quote")
        for quote in quotes:
            span = find_quote(text, quote)
            if span is not None:
                out.append((span[0], span[1], quote_style))
        out.extend((a, b, self.get_visual_style(name)) for name, a, b in marks)
        return out

    def visible_indices(self) -> list[int]:
        height = self.size.height
        used, index, shown = 0, self._top, []
        while index < self.count and used < height:
            used += len(self._strips(index))
            shown.append(index)
            index += 1
        return shown

    def _scroll_to_cursor(self) -> None:
        if not self.count or not self.size.height:
            return
        if self.cursor < self._top:
            self._top = self.cursor
            return
        height = self.size.height
        # The smallest top (not above the current one) that shows the cursor paragraph's first
        # lines: walk back from the cursor while the paragraphs above it still fit. Only the
        # paragraphs that end up on screen are measured, however far the cursor jumped.
        top = self.cursor
        used = min(len(self._strips(self.cursor)), height)
        while top > self._top:
            above = len(self._strips(top - 1))
            if used + above > height:
                break
            used += above
            top -= 1
        self._top = top

    def refresh(self, *args: object, **kwargs: object) -> Self:
        self._frame = None
        self._ahead.later()  # the window is drawn again: it may have moved
        return super().refresh(*args, **kwargs)  # type: ignore[arg-type]

    def _build_frame(self) -> tuple[list[Strip], list[int]]:
        """The window's lines and the paragraph index of each (from what is fetched only)."""
        frame: list[Strip] = []
        rows: list[int] = []
        self._painting = True  # no reads from here on: paragraph_at uses what is fetched
        try:
            for index in self.visible_indices():
                strips = self._strips(index)
                frame.extend(strips)
                rows.extend([index] * len(strips))
        finally:
            self._painting = False
        return frame, rows

    def render_lines(self, crop: Region) -> list[Strip]:
        # Lines styled once (ahead, or when first drawn) wherever they are on screen: a page
        # down drew 45 new lines through Textual's styling, a third of the key (line_memo).
        return self._styled.render(self, crop, self.render_line) or super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if self._frame is None:
            self._frame, self._rows = self._build_frame()
        if y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self._background())
