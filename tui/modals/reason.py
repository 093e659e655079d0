"""Ask for a reason in one line (keeping a unit whose words its quote contradicts or does not
back). Returns the reason, or None when cancelled or left blank."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label

from tui.modals.once import Modal
from tui.safe import content
from tui.widgets.guarded import SafeInput


class ReasonModal(Modal[str | None]):
    """One question (our words) over the untrusted `detail` it is about, and an answer field."""

    BINDINGS = [
        Binding("enter", "keep", "Keep anyway", id="reason.keep"),
        Binding("escape", "cancel", "Cancel", id="reason.cancel"),
    ]

    def __init__(self, question: str, detail: str) -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="reason-dialog"):
            yield Label(Content.styled(self.question, "bold"))
            yield Label(content(self.detail), classes="hint")
            yield SafeInput(placeholder="the reason (enter keeps it; escape cancels)", id="reason-input")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The field's own enter (it comes first while the field has the focus)."""
        event.stop()
        self.action_keep()

    def action_keep(self) -> None:
        reason = " ".join(self.query_one(Input).value.split())
        self.dismiss(reason or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
