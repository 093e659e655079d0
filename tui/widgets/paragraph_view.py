"""A virtualised reader for an article's paragraphs (5,000+ paragraphs stay instant).

No widget per paragraph: the view keeps the index of the paragraph at the top of the window,
fetches pages of paragraphs on demand, wraps only the ones on screen and renders them as
strips. A paragraph's emphasis, links and code are styled from its spans (reader text: the
markup was rendered away at import); evidence paragraphs get a background; quoted spans inside
them are highlighted.

Pages are fetched when the window moves (load, go_to, paging, scrolling, a resize), never
while painting: render_line only reads what is already here, so a failed read is reported by
the screen's fetch (BaseScreen.paragraph_pages), where it can be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Self

from textual.binding import Binding
from textual.content import Content
from textual.events import MouseScrollDown, MouseScrollUp, Resize
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

from core.domain import SourceParagraph
from core.text import sanitize
from tui.safe import SPAN_STYLES, find_quote, styled

HEADING_STYLE = "bold"
PAGE = 64  # paragraphs fetched at a time: a page or two of text, cheap enough for the first paint
Fetch = Callable[[int, int], Sequence[SourceParagraph]]


class ParagraphView(Widget, can_focus=True):
    """The paragraphs of one article with their ids in a gutter."""

    BINDINGS = [
        Binding("up,k", "move(-1)", "Prev ¶", id="para.up"),
        Binding("down,j", "move(1)", "Next ¶", id="para.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="para.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="para.pagedown"),
        Binding("home", "jump(0)", "First paragraph", show=False, id="para.home"),
        Binding("end", "jump(-1)", "Last paragraph", show=False, id="para.end"),
    ]
    COMPONENT_CLASSES = {
        "paragraph-view--id",
        "paragraph-view--cursor-id",
        "paragraph-view--evidence",
        "paragraph-view--quote",
    }
    DEFAULT_CSS = """
    ParagraphView { height: 1fr; }
    """

    cursor: reactive[int] = reactive(0, init=False)
    _frame: list[Strip] | None = None

    class CursorMoved(Message):
        """The reading cursor moved to paragraph `index`. Handled by `on_paragraph_view_cursor_moved`."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.count = 0
        self._fetch: Fetch | None = None
        self._pages: dict[int, Sequence[SourceParagraph]] = {}
        self._top = 0
        self._quotes: Mapping[str, Sequence[str]] = {}
        self._cache: dict[tuple[object, ...], list[Strip]] = {}
        self._frame: list[Strip] | None = None
        self._painting = False

    # --- attributes down ------------------------------------------------------------------

    def load(self, count: int, fetch: Fetch, start: int = 0) -> None:
        """Show `count` paragraphs fetched page by page with `fetch(start, limit)`."""
        self.count = count
        self._fetch = fetch
        self._pages.clear()
        self._cache.clear()
        self._top = 0
        self.set_reactive(ParagraphView.cursor, 0)
        self.go_to(start)

    def set_evidence(self, quotes: Mapping[str, Sequence[str]]) -> None:
        """Highlight these paragraphs (by id) and, inside them, these quotes."""
        if quotes == self._quotes:
            return  # the same unit again (its highlight message after a direct call): nothing to redo
        self._quotes = quotes
        self.refresh()  # cached paragraphs are keyed by their quotes: only the changed ones redraw

    def go_to(self, index: int, *, top: bool = False) -> None:
        """Move the cursor to paragraph `index` and scroll it into view (to the top if asked)."""
        if not self.count:
            return
        index = max(0, min(index, self.count - 1))
        if top:
            self._top = index
        self.cursor = index
        self._fetch_window()
        self._scroll_to_cursor()
        self.refresh()

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
        step = max(1, len(self._visible_indices()) - 1)
        self._top = max(0, min(self.count - 1, self._top + direction * step))
        self.go_to(self.cursor + direction * step)

    def action_jump(self, where: int) -> None:
        self.go_to(self.count - 1 if where < 0 else where)

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

    def watch_cursor(self, index: int) -> None:
        self.post_message(self.CursorMoved(index))

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
        key = (index, width, is_cursor, quotes, self.visual_style)  # style: a theme change
        if key in self._cache:
            return self._cache[key]
        if para is None:
            return [Strip.blank(width)]
        gutter, text_width = self._text_width()
        base = self.get_visual_style("paragraph-view--evidence") if quotes is not None else self.visual_style
        quote_style = self.get_visual_style("paragraph-view--quote")
        body = reader_text(para)
        text = body.plain
        for quote in quotes or ():
            span = find_quote(text, sanitize(quote))
            if span is not None:
                body = body.stylize(quote_style, span[0], span[1])
        lines = Visual.to_strips(self, body, text_width, None, base, pad=True)
        id_class = "paragraph-view--cursor-id" if is_cursor else "paragraph-view--id"
        id_style = self.get_visual_style(id_class)
        label = Content(f"{para.paragraph_id:<{gutter}}"[:gutter])
        gutter_strip = (
            Visual.to_strips(self, label, gutter, 1, id_style, pad=True)[0] if gutter else Strip([])
        )
        blank_gutter = Strip.blank(gutter, self.rich_style)
        strips = [(gutter_strip if i == 0 else blank_gutter) + line for i, line in enumerate(lines)]
        strips.append(Strip.blank(width, self.rich_style))
        if len(self._cache) > 512:
            self._cache.clear()
        self._cache[key] = strips
        return strips

    def _visible_indices(self) -> list[int]:
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
        return super().refresh(*args, **kwargs)  # type: ignore[arg-type]

    def render_line(self, y: int) -> Strip:
        if self._frame is None:
            frame: list[Strip] = []
            self._painting = True  # no reads from here on: paragraph_at uses what is fetched
            try:
                for index in self._visible_indices():
                    frame.extend(self._strips(index))
            finally:
                self._painting = False
            self._frame = frame
        if y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self.rich_style)


def reader_text(para: SourceParagraph) -> Content:
    """A paragraph as a reader sees it: its text (data, never markup) with emphasis, links,
    code and images styled from its spans, and a heading in bold."""
    spans = [(s.start, s.end, SPAN_STYLES.get(s.kind, "")) for s in para.spans]
    if para.kind == "heading":
        spans.insert(0, (0, len(para.text), HEADING_STYLE))
    return styled(para.text, spans)
