"""A virtualised reader for an article's paragraphs (5,000+ paragraphs stay instant).

No widget per paragraph: the view keeps the index of the paragraph at the top of the window,
fetches pages of paragraphs on demand, wraps only the ones on screen and renders them as
strips. A paragraph's emphasis, links and code are styled from its spans (reader text: the
markup was rendered away at import); evidence paragraphs get a background; quoted spans inside
them are highlighted.

Pages are fetched when the window moves (load, go_to, paging, scrolling, a resize), never
while painting: render_line only reads what is already here, so a failed read is reported by
the screen's fetch (BaseScreen.paragraph_pages), where it can be.

The cursor is a word of the cursor paragraph (left / right); `v` starts a selection at it,
which grows and shrinks by word, sentence or paragraph (tui/widgets/text_cursor.py) and is
drawn over everything else. The view only selects: `c` and `n` post MakeCard, and the screen
asks the services (attributes down, messages up). A mouse press puts the cursor on a
paragraph; dragging selects whole paragraphs (a wrapped line does not say which character it
shows, so finer selection is by keyboard).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Self

from textual.binding import Binding
from textual.content import Content
from textual.events import MouseDown, MouseMove, MouseScrollDown, MouseScrollUp, MouseUp, Resize
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget

from core.domain import SelectedSpan, SourceParagraph
from tui.safe import SPAN_STYLES, find_quote, styled
from tui.widgets import text_cursor
from tui.widgets.text_cursor import Selection

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
        Binding("left", "word(-1)", "Prev word", show=False, id="para.word_left"),
        Binding("right", "word(1)", "Next word", show=False, id="para.word_right"),
        Binding("v", "select", "Start selection", id="para.select"),
        Binding("shift+right", "grow('word', 1)", "+word", show=False, id="para.grow_word"),
        Binding("shift+left", "grow('word', -1)", "-word", show=False, id="para.shrink_word"),
        Binding("right_parenthesis", "grow('sentence', 1)", "+sentence", show=False, id="para.grow_sentence"),
        Binding(
            "left_parenthesis", "grow('sentence', -1)", "-sentence", show=False, id="para.shrink_sentence"
        ),
        Binding("right_curly_bracket", "grow('paragraph', 1)", "+¶", show=False, id="para.grow_paragraph"),
        Binding("left_curly_bracket", "grow('paragraph', -1)", "-¶", show=False, id="para.shrink_paragraph"),
        Binding("c", "make('cloze')", "Cloze from selection", id="para.cloze"),
        Binding("n", "make('unit')", "Unit from selection", id="para.unit"),
        Binding("escape", "clear", "Clear selection", id="para.clear"),
    ]
    ALLOW_SELECT = False  # a drag selects paragraphs of ours, not Textual's screen text
    COMPONENT_CLASSES = {
        "paragraph-view--word",
        "paragraph-view--selection",
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

    class MakeCard(Message):
        """Make a card of the selection: `kind` "cloze" (the selection is the blank) or "unit"
        (the form opens on it). Handled by `on_paragraph_view_make_card`."""

        def __init__(self, view: ParagraphView, kind: str, spans: tuple[SelectedSpan, ...]) -> None:
            super().__init__()
            self.view = view
            self.kind = kind
            self.spans = spans

    class SelectionChanged(Message):
        """A selection started or ended (`view.selection`). Handled by
        `on_paragraph_view_selection_changed`."""

        def __init__(self, view: ParagraphView) -> None:
            super().__init__()
            self.view = view

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
        self.word = 0  # the cursor's word in the cursor paragraph
        self.selection: Selection | None = None
        self._rows: list[int] = []  # the paragraph index of each line of the frame
        self._dragging = False
        self._drag_from = 0

    # --- attributes down ------------------------------------------------------------------

    def load(self, count: int, fetch: Fetch, start: int = 0) -> None:
        """Show `count` paragraphs fetched page by page with `fetch(start, limit)`."""
        self.count = count
        self._fetch = fetch
        self._pages.clear()
        self._cache.clear()
        self._top = 0
        self.word = 0
        self.selection = None
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
        if index != self.cursor:
            self.word = 0
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

    # --- the cursor word and the selection ------------------------------------------------

    def text_of(self, index: int) -> str | None:
        para = self.paragraph_at(index)
        return para.text if para is not None else None

    def action_word(self, delta: int) -> None:
        """The cursor to the next / previous word, into the next / previous paragraph at an end."""
        count = len(text_cursor.words(self.text_of(self.cursor) or ""))
        word = self.word + delta
        if 0 <= word < count:
            self.word = word
            self._repaint({self.cursor})
        elif word < 0 < self.cursor:
            self.go_to(self.cursor - 1)
            self.word = max(0, len(text_cursor.words(self.text_of(self.cursor) or "")) - 1)
            self.refresh()
        elif word >= count and self.cursor < self.count - 1:
            self.go_to(self.cursor + 1)

    def action_select(self) -> None:
        """Start a selection at the cursor word (or end the one there is)."""
        if self.selection is not None:
            self.clear_selection()
            return
        text = self.text_of(self.cursor)
        self._select(text_cursor.word_selection(self.cursor, text, self.word) if text else None)

    def action_grow(self, unit: str, direction: int) -> None:
        """Grow or shrink the selection by a word, a sentence or a paragraph (one starts at the
        cursor word if there is none)."""
        if self.selection is None:
            self.action_select()
            if unit == "word" or self.selection is None:
                return
        step = STEPS[unit]
        self._select(step(self.selection, self.text_of, direction))

    def action_make(self, kind: str) -> None:
        spans = self.selected_spans()
        if spans:
            self.post_message(self.MakeCard(self, kind, spans))

    def action_clear(self) -> None:
        self.clear_selection()

    def clear_selection(self) -> None:
        self._select(None)

    def selected_spans(self) -> tuple[SelectedSpan, ...]:
        """The selection as exact spans of the paragraphs' texts, in order."""
        if self.selection is None:
            return ()
        out: list[SelectedSpan] = []
        for index, (a, b) in self.selection.parts(self.text_of):
            para = self.paragraph_at(index)
            if para is not None:
                out.append(SelectedSpan(para.paragraph_id, a, b, para.text[a:b]))
        return tuple(out)

    def _select(self, selection: Selection | None) -> None:
        if selection == self.selection:
            return
        toggled = (selection is None) != (self.selection is None)
        touched = {self.cursor, *_rows_of(self.selection), *_rows_of(selection)}
        self.selection = selection
        top = self._top
        if selection is not None:
            end, offset = selection.end
            if end != self.cursor:  # the cursor follows the selection's end, in view
                self.cursor = end
                self._fetch_window()
                self._scroll_to_cursor()
            self.word = text_cursor.word_index(self.text_of(end) or "", max(0, offset - 1))
        if self._top != top:
            self.refresh()  # scrolled: the whole window is drawn again
        else:
            self._repaint(touched | {self.cursor})
        if toggled:  # the keys change only when a selection starts or ends (a footer redraw)
            self.refresh_bindings()
            self.post_message(self.SelectionChanged(self))

    def _repaint(self, indices: set[int]) -> None:
        """Draw again only the lines of these paragraphs (a new cursor word or selection: only
        styles change, so the lines stay where they are); the whole window if none is known."""
        rows = self._rows
        if self._frame is None or not rows:
            self.refresh()
            return
        regions: list[Region] = []
        y = 0
        while y < len(rows):
            if rows[y] not in indices:
                y += 1
                continue
            start = y
            while y < len(rows) and rows[y] in indices:
                y += 1
            regions.append(Region(0, start, self.size.width, y - start))
        if regions:
            self.refresh(*regions)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without a selection these keys are not ours: False lets the screen's own key act
        # (Article's n, Triage's c, escape to go back).
        if action in {"make", "clear"} or (action == "grow" and parameters[1] == -1):
            return self.selection is not None
        return True

    def on_focus(self) -> None:
        self.refresh()  # the cursor word is drawn while the view has focus

    def on_blur(self) -> None:
        self.refresh()

    # --- the mouse ------------------------------------------------------------------------

    def _row_index(self, event: MouseDown | MouseMove) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None or not 0 <= offset.y < len(self._rows):
            return None
        return self._rows[offset.y]

    def on_mouse_down(self, event: MouseDown) -> None:
        index = self._row_index(event)
        if index is None:
            return
        self.focus()
        self.clear_selection()
        self.go_to(index)
        self._dragging = True
        self._drag_from = index
        self.capture_mouse()

    def on_mouse_move(self, event: MouseMove) -> None:
        if not self._dragging or not event.button:
            return
        index = self._row_index(event)
        if index is None:
            return
        low, high = sorted((self._drag_from, index))
        first, last = self.text_of(low) or "", self.text_of(high) or ""
        start, end = text_cursor.paragraph_span(first)[0], text_cursor.paragraph_span(last)[1]
        if end > 0 or high > low:
            self._select(Selection((low, start), (high, end)))

    def on_mouse_up(self, event: MouseUp) -> None:
        if self._dragging:
            self._dragging = False
            self.capture_mouse(False)

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
        marks = self._marks(index, para.text) if para is not None else ()
        key = (index, width, is_cursor, quotes, marks, self.visual_style)  # style: a theme change
        if key in self._cache:
            return self._cache[key]
        if para is None:
            return [Strip.blank(width)]
        gutter, text_width = self._text_width()
        base = self.get_visual_style("paragraph-view--evidence") if quotes is not None else self.visual_style
        body = reader_text(para, self._overlay(para.text, quotes or (), marks))
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

    def _marks(self, index: int, text: str) -> tuple[tuple[str, int, int], ...]:
        """The selected part of this paragraph and the cursor word (while focused)."""
        marks: list[tuple[str, int, int]] = []
        part = self.selection.part(index, text) if self.selection is not None else None
        if part is not None:
            marks.append(("paragraph-view--selection", *part))
        if index == self.cursor and self.has_focus:
            spans = text_cursor.words(text)
            if spans:
                marks.append(("paragraph-view--word", *spans[min(self.word, len(spans) - 1)]))
        return tuple(marks)

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
            rows: list[int] = []
            self._painting = True  # no reads from here on: paragraph_at uses what is fetched
            try:
                for index in self._visible_indices():
                    strips = self._strips(index)
                    frame.extend(strips)
                    rows.extend([index] * len(strips))
            finally:
                self._painting = False
            self._frame, self._rows = frame, rows
        if y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self.rich_style)


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


def _rows_of(selection: Selection | None) -> range:
    return range(selection.start[0], selection.end[0] + 1) if selection is not None else range(0)


STEPS = {
    "word": text_cursor.by_word,
    "sentence": text_cursor.by_sentence,
    "paragraph": text_cursor.by_paragraph,
}
