"""Edit a unit: content, type, tags and every question (add one, delete one). Returns the edit
or None. The same form makes a new unit of yours from a selection (`title`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Input, Label, Select, Static, TextArea

from core.domain import MEMORY_TYPES, StoredUnit, ValidationReport
from core.text import sanitize
from core.text.tags import parse_tags, tag_line
from tui.modals.once import Modal
from tui.safe import content
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar


@dataclass(frozen=True)
class UnitEdit:
    content: str
    memory_type: str
    tags: tuple[str, ...]
    questions: tuple[tuple[str, str, str], ...]


Check = Callable[[UnitEdit], ValidationReport | None]  # None: could not check (already reported)


class QuestionRow(Vertical):
    """One question of the form: its question and answer fields and its kind."""

    def __init__(self, number: int, question: str, answer: str, kind: str) -> None:
        super().__init__(classes="question-row")
        self.kind = kind
        self.number = number
        self._question = question
        self._answer = answer

    def compose(self) -> ComposeResult:
        yield Label(Content(f"Question {self.number} ({self.kind})"), classes="question-label")
        yield SafeInput(sanitize(self._question, single_line=True), classes="edit-question")
        yield Label(Content("Answer"))
        yield SafeInput(sanitize(self._answer, single_line=True), classes="edit-answer")

    def value(self) -> tuple[str, str, str]:
        """What the row holds; until its fields are mounted, what it was made with (a ctrl+s
        right after ctrl+n reached a row with no fields yet: NoMatches, exit 1)."""
        fields = list(self.query(Input))
        if len(fields) < 2:
            return self._question.strip(), self._answer.strip(), self.kind
        return fields[0].value.strip(), fields[1].value.strip(), self.kind


class EditUnitModal(Modal[UnitEdit | None]):
    """A form over one unit; ctrl+s checks the edit with `check` and saves it."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="edit.save"),
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
        Binding("ctrl+n", "add_question", "Add question", id="edit.add_question"),
        Binding("ctrl+r", "remove_question", "Delete question", id="edit.remove_question"),
        Binding("ctrl+t", "next_type", "Next type", id="edit.next_type"),
    ]

    def __init__(
        self,
        unit: StoredUnit,
        check: Check | None = None,
        *,
        title: str = "Edit unit",
        keep_errors: bool = True,
    ) -> None:
        """`keep_errors`: a second save keeps an edit with errors (a proposal, which then cannot
        be accepted); False: a card with errors is never saved (a card of yours is confirmed)."""
        super().__init__()
        self.unit = unit
        self.check = check
        self.title_text = title
        self.keep_errors = keep_errors
        self._rows = 0

    def compose(self) -> ComposeResult:
        unit = self.unit
        with Vertical(id="edit-dialog"):
            yield Label(Content.styled(self.title_text, "bold"))
            with VerticalScroll(id="edit-fields"):
                yield Label(Content("Content"))
                yield TextArea(sanitize(unit.content), id="edit-content", soft_wrap=True)
                yield Label(Content("Type (ctrl+t: next)"))
                yield Select(
                    [(Content(t), t) for t in MEMORY_TYPES],
                    value=unit.memory_type if unit.memory_type in MEMORY_TYPES else MEMORY_TYPES[0],
                    allow_blank=False,
                    id="edit-type",
                )
                yield Label(Content("Tags, separated by spaces or commas (Calvin_cycle is one tag)"))
                yield SafeInput(tag_line(unit.tags), id="edit-tags")
                with Vertical(id="edit-questions"):
                    for q in unit.questions or ():
                        yield self._row(q.question, q.expected_answer, q.kind)
                    if not unit.questions:
                        yield self._row("", "", "qa")
            yield Static(id="edit-issues")
            yield Label(
                Content("ctrl+s save · ctrl+n add question · ctrl+r delete question · escape cancel"),
                classes="hint",
            )
        yield KeyBar()

    def _row(self, question: str, answer: str, kind: str) -> QuestionRow:
        self._rows += 1
        return QuestionRow(self._rows, question, answer, kind)

    def on_mount(self) -> None:
        self.query_one("#edit-content", TextArea).focus()

    def rows(self) -> list[QuestionRow]:
        return list(self.query(QuestionRow))

    def current(self) -> UnitEdit:
        questions = tuple(v for v in (row.value() for row in self.rows()) if v[0] or v[1])
        memory_type = self.query_one("#edit-type", Select).value
        return UnitEdit(
            content=self.query_one("#edit-content", TextArea).text.strip(),
            memory_type=str(memory_type),
            tags=parse_tags(self.query_one("#edit-tags", Input).value),
            questions=questions,
        )

    async def action_add_question(self) -> None:
        """A new empty question, focused. Mounted before the next key is handled (awaited), and
        focused only if it is still there (a ctrl+r at once removed it: NoMatches, exit 1)."""
        row = self._row("", "", "qa")
        await self.query_one("#edit-questions", Vertical).mount(row)
        fields = list(row.query(Input))
        if row.is_attached and fields:
            fields[0].focus()

    def action_remove_question(self) -> None:
        """Delete the question that has the focus (the last one otherwise)."""
        rows = self.rows()
        if not rows:
            return
        focused = self.focused
        chosen = next((r for r in rows if focused is not None and focused in r.query(Input)), rows[-1])
        chosen.remove()
        self.query_one("#edit-content", TextArea).focus()

    def action_next_type(self) -> None:
        select = self.query_one("#edit-type", Select)
        current = str(select.value)
        index = MEMORY_TYPES.index(current) if current in MEMORY_TYPES else -1
        select.value = MEMORY_TYPES[(index + 1) % len(MEMORY_TYPES)]

    def action_save(self) -> None:
        edit = self.current()
        if self.check is not None:
            report = self.check(edit)
            if report is None:
                return  # the form stays open with the edit
            if not report.ok and not (self.keep_errors and getattr(self, "_warned", False)):
                self._warned = True
                heading = (
                    "Still has errors (saving again keeps them; it stays unacceptable):"
                    if self.keep_errors
                    else "Not saved: fix these errors first (escape cancels):"
                )
                lines = [Content.styled(heading, "bold $error")]
                lines += [content(f"{i.severity}: {i.message}") for i in report.issues]
                self.query_one("#edit-issues", Static).update(Content("\n").join(lines))
                return
        self.dismiss(edit)

    def action_cancel(self) -> None:
        self.dismiss(None)
