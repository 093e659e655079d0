"""Two small typed dialogs: Confirm (yes / no, ModalScreen[bool]) and Ask (a line of text,
ModalScreen[str | None]). Their text is data (titles and content are untrusted)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from tui.modals.once import Modal
from tui.safe import content
from tui.widgets.guarded import SafeInput


class Confirm(Modal[bool]):
    """`y` does it, `n` or escape does not."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-dialog"):
            yield Static(content(self.question, style="bold"))
            if self.detail:
                yield Static(content(self.detail), classes="hint")
            yield Static(content("y: yes · n: no"), classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Ask(Modal[str | None]):
    """A line of text: enter gives it, escape gives None."""

    BINDINGS = [
        Binding("enter", "done", "Done", id="ask.done"),
        Binding("escape", "cancel", "Cancel", id="ask.cancel"),
    ]

    def __init__(self, question: str, *, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-dialog"):
            yield Static(content(self.question, style="bold"))
            yield SafeInput(self.value, placeholder=self.placeholder, id="ask-input")
            yield Static(content("enter: done · escape: cancel"), classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The field's own enter (it comes first while the field has the focus)."""
        event.stop()
        self.action_done()

    def action_done(self) -> None:
        self.dismiss(self.query_one(Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)
