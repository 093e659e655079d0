"""Choose one of a list by keyboard: type to narrow it, down to the list, enter to choose.

Used by the search filters for a tag or an article. The first entry ("any") clears the choice.
Returns the chosen entry's key, "" for any, or None when closed without a choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from core.text.analysis import normalize
from tui.modals.once import Modal
from tui.safe import content
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar

SHOWN = 200  # entries listed at once (typing narrows the rest)


class PickModal(Modal[str | None]):
    """`entries`: (key, label, note) — the label is untrusted text, the note our own (a count)."""

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="pick.close"),
        Binding("down", "focus_list", "List", show=False, id="pick.list"),
    ]

    def __init__(self, title: str, entries: Sequence[tuple[str, str, str]], *, anything: str) -> None:
        super().__init__()
        self.title_text = title
        self.entries = list(entries)
        self.anything = anything  # the label of the entry that clears the choice
        self._keys: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-dialog"):
            yield Label(Content.styled(self.title_text, "bold"))
            yield SafeInput(placeholder="type to narrow the list", id="pick-input")
            yield OptionList(id="pick-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show("")
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._show(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if len(self._keys) > 1:  # the first match after "any"
            self.dismiss(self._keys[1])

    def action_focus_list(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if options.highlighted is None and options.option_count:
            options.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._keys[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _show(self, typed: str) -> None:
        wanted = normalize(typed.strip())
        matching = [e for e in self.entries if wanted in normalize(e[1])][:SHOWN]
        options = self.query_one(OptionList)
        options.clear_options()
        self._keys = ["", *[key for key, _, _ in matching]]
        rows = [Option(Content.styled(self.anything, "italic"))]
        for _, text, note in matching:
            rows.append(
                Option(Content.assemble(content(text, single_line=True), (f"  {note}", "$text-muted")))
            )
        options.add_options(rows)
