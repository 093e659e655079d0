"""The article's paragraphs as the reader reads them: the window (tui/widgets/paragraph_window.py
pages and draws 5,000+ paragraphs) plus a reading cursor and a selection.

The cursor is a word of the cursor paragraph (left / right); `v` starts a selection at it,
which grows and shrinks by word, sentence or paragraph (tui/widgets/text_cursor.py) and is
drawn over everything else. The view only selects: `c` and `n` post MakeCard, and the screen
asks the services (attributes down, messages up). A mouse press puts the cursor on the word
under the pointer; a drag selects exactly the characters from the press to the pointer, in one
paragraph or across consecutive ones (white space at its ends left out), mapped from the
screen through the wrapping the window draws (tui/widgets/paragraph_text.char_at: CJK
characters take two cells); a drag from the ids in the gutter selects whole paragraphs.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.events import MouseDown, MouseMove, MouseUp
from textual.message import Message

from core.domain import SelectedSpan
from tui.widgets import text_cursor
from tui.widgets.paragraph_text import char_at, reader_text
from tui.widgets.paragraph_window import PAGE, Fetch, ParagraphWindow
from tui.widgets.text_cursor import Point, Selection

__all__ = ["PAGE", "Fetch", "ParagraphView", "reader_text"]


class ParagraphView(ParagraphWindow, can_focus=True):
    """The paragraphs of one article with their ids in a gutter, a cursor word and a selection."""

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

    @dataclass
    class CursorMoved(Message):
        """The reading cursor moved to paragraph `index`. Handled by `on_paragraph_view_cursor_moved`."""

        index: int

    @dataclass
    class MakeCard(Message):
        """Make a card of the selection: `kind` "cloze" (the selection is the blank) or "unit"
        (the form opens on it). Handled by `on_paragraph_view_make_card`."""

        view: ParagraphView
        kind: str
        spans: tuple[SelectedSpan, ...]

    @dataclass
    class SelectionChanged(Message):
        """A selection started or ended (`view.selection`). Handled by
        `on_paragraph_view_selection_changed`."""

        view: ParagraphView

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.selection: Selection | None = None
        self._drag_from: Point | None = None  # where a mouse press was, while it drags
        self._drag_whole = False  # the press was on the ids: whole paragraphs

    def load(self, count: int, fetch: Fetch, start: int = 0) -> None:
        """Show `count` paragraphs fetched page by page with `fetch(start, limit)`."""
        self.selection = None
        super().load(count, fetch, start)

    def watch_cursor(self, index: int) -> None:
        self.post_message(self.CursorMoved(index))

    # --- the cursor word and the selection ------------------------------------------------

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

    def point_at(self, x: int, y: int) -> Point | None:
        """The (paragraph, character offset) drawn at content cell (x, y): the character under
        it; in the gutter, its line's first; past a line's end, its last; on the blank line
        after a paragraph, the paragraph's end. None below the last paragraph."""
        rows = self._rows
        if not 0 <= y < len(rows):
            return None
        index = rows[y]
        text = self.text_of(index)
        if text is None:
            return None
        gutter, width = self._text_width()
        return index, char_at(text, width, y - rows.index(index), x - gutter)

    def drag_selection(self, anchor: Point, point: Point, *, whole: bool = False) -> Selection | None:
        """The characters from `anchor` to `point`, both ends included, in either direction,
        less the white space at its ends (None if that leaves nothing); `whole`: the
        paragraphs they are in."""
        (i, a), (j, b) = sorted((anchor, point))
        first, last = self.text_of(i) or "", self.text_of(j) or ""
        b = min(b + 1, len(last))
        if whole:
            a, b = text_cursor.paragraph_span(first)[0], text_cursor.paragraph_span(last)[1]
        while a < len(first) and first[a].isspace():
            a += 1
        while b > 0 and last[b - 1].isspace():
            b -= 1
        if i == j and b <= a:
            return None
        return Selection((i, a), (j, b))

    def on_mouse_down(self, event: MouseDown) -> None:
        offset = event.get_content_offset(self)
        point = self.point_at(offset.x, offset.y) if offset is not None else None
        if point is None:
            return
        self.focus()
        self.clear_selection()
        self.go_to(point[0])
        self.word = text_cursor.word_index(self.text_of(point[0]) or "", point[1])
        self._repaint({point[0]})
        self._drag_from = point
        self._drag_whole = offset is not None and offset.x < self._text_width()[0]
        self.capture_mouse()

    def on_mouse_move(self, event: MouseMove) -> None:
        if self._drag_from is None:  # not dragging (the press was elsewhere, or it was let go)
            return
        offset = event.get_content_offset(self)
        point = self.point_at(offset.x, offset.y) if offset is not None else None
        if point is not None and (point != self._drag_from or self.selection is not None):
            self._select(self.drag_selection(self._drag_from, point, whole=self._drag_whole))

    def on_mouse_up(self, event: MouseUp) -> None:
        if self._drag_from is not None:
            self._drag_from = None
            self.capture_mouse(False)

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


def _rows_of(selection: Selection | None) -> range:
    return range(selection.start[0], selection.end[0] + 1) if selection is not None else range(0)


STEPS = {
    "word": text_cursor.by_word,
    "sentence": text_cursor.by_sentence,
    "paragraph": text_cursor.by_paragraph,
}
