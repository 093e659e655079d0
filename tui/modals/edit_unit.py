"""Edit a unit: content, type, tags, first question and answer. Returns the edit or None."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select, Static, TextArea

from core.domain import MEMORY_TYPES, StoredUnit, ValidationReport
from core.text import sanitize
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


class EditUnitModal(ModalScreen[UnitEdit | None]):
    """A form over one unit; ctrl+s checks the edit with `check` and saves it."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="edit.save"),
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
    ]

    def __init__(self, unit: StoredUnit, check: Check | None = None) -> None:
        super().__init__()
        self.unit = unit
        self.check = check

    def compose(self) -> ComposeResult:
        unit = self.unit
        first = unit.questions[0] if unit.questions else None
        with Vertical(id="edit-dialog"):
            yield Label(Content.styled("Edit unit", "bold"))
            yield Label(Content("Content"))
            yield TextArea(sanitize(unit.content), id="edit-content", soft_wrap=True)
            yield Label(Content("Type"))
            yield Select(
                [(Content(t), t) for t in MEMORY_TYPES],
                value=unit.memory_type,
                allow_blank=False,
                id="edit-type",
            )
            yield Label(Content("Tags (comma separated)"))
            yield SafeInput(sanitize(", ".join(unit.tags), single_line=True), id="edit-tags")
            yield Label(Content("Question"))
            yield SafeInput(sanitize(first.question if first else "", single_line=True), id="edit-question")
            yield Label(Content("Answer"))
            yield SafeInput(
                sanitize(first.expected_answer if first else "", single_line=True), id="edit-answer"
            )
            yield Static(id="edit-issues")
            yield Label(Content("ctrl+s save · escape cancel"), classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#edit-content", TextArea).focus()

    def current(self) -> UnitEdit:
        question = self.query_one("#edit-question", Input).value.strip()
        answer = self.query_one("#edit-answer", Input).value.strip()
        kind = self.unit.questions[0].kind if self.unit.questions else "qa"
        rest = tuple((q.question, q.expected_answer, q.kind) for q in self.unit.questions[1:])
        first = ((question, answer, kind),) if question or answer else ()
        memory_type = self.query_one("#edit-type", Select).value
        return UnitEdit(
            content=self.query_one("#edit-content", TextArea).text.strip(),
            memory_type=str(memory_type),
            tags=tuple(t.strip() for t in self.query_one("#edit-tags", Input).value.split(",") if t.strip()),
            questions=first + rest,
        )

    def action_save(self) -> None:
        edit = self.current()
        if self.check is not None:
            report = self.check(edit)
            if report is None:
                return  # the form stays open with the edit
            if not report.ok and not getattr(self, "_warned", False):
                self._warned = True
                lines = [
                    Content.styled(
                        "Still has errors (saving again keeps them; it stays unacceptable):", "bold $error"
                    )
                ]
                lines += [content(f"{i.severity}: {i.message}") for i in report.issues]
                self.query_one("#edit-issues", Static).update(Content("\n").join(lines))
                return
        self.dismiss(edit)

    def action_cancel(self) -> None:
        self.dismiss(None)
