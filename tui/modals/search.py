"""Search the library from anywhere (`/`): type, see matching articles/units, enter to open."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker

from core.text import sanitize
from tui.reporting import report_worker
from tui.safe import content
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar

LIMIT = 50
Target = tuple[int, int | None, int]


class SearchModal(ModalScreen[Target | None]):
    """Returns (article id, unit id or None, paragraph index) to open, or None."""

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="search.close"),
        Binding("down", "focus_results", "Results", show=False, id="search.results"),
        # priority: ahead of the list's own up; it passes the key on unless at the first result
        Binding("up", "focus_input", "Search field", show=False, priority=True, id="search.input"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="search-dialog"):
            yield Label(Content.styled("Search the library", "bold"))
            # back from the results (up) keeps the query to edit: no select-all on focus
            yield SafeInput(
                placeholder="words from titles, units, questions …", id="search-input", select_on_focus=False
            )
            yield OptionList(id="search-results")
        yield KeyBar()

    def on_mount(self) -> None:
        self._targets: list[Target] = []
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value.strip())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self._targets:
            self.dismiss(self._targets[0])

    def action_focus_results(self) -> None:
        results = self.query_one(OptionList)
        results.focus()
        if results.highlighted is None and results.option_count:
            results.highlighted = 0  # down lands on the first result (enter opens it)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_input":  # up from the first result (or an empty list) goes back to typing
            results = self.query_one(OptionList)
            return results.has_focus and (results.highlighted or 0) == 0
        return True

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._targets[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker(self.app, event)

    @work(thread=True, exclusive=True, name="searching", exit_on_error=False)
    def run_search(self, query: str) -> None:
        """Thread worker: query the services, then hand the rows to the UI thread."""
        rows = find(self.app, query) if query else []
        self.app.call_from_thread(self._show, rows)

    def _show(self, rows: list[tuple[Target, Content]]) -> None:
        results = self.query_one(OptionList)
        results.clear_options()
        self._targets = [target for target, _ in rows]
        results.add_options([Option(label) for _, label in rows])
        if not rows and self.query_one(Input).value.strip():  # say so, rather than show nothing
            results.add_option(
                Option(Content.styled("No matches: try other or fewer words.", "italic"), disabled=True)
            )


def find(app: Any, query: str) -> list[tuple[Target, Content]]:
    """(target, label) pairs from the search service: paragraphs and units, best first."""
    rows: list[tuple[Target, Content]] = []
    for hit in app.services.search.search(query, limit=LIMIT):
        snippet = Content(sanitize(hit.snippet, single_line=True))
        for start, end in hit.highlights:
            snippet = snippet.stylize("bold $accent", start, end)
        kind = "unit" if hit.unit_id is not None else hit.paragraph_id or "¶"
        where = (
            content(f" · {hit.locator.label()}", single_line=True, style="$text-muted") if hit.locator else ""
        )
        label = Content.assemble(
            (f"{kind:<6}", "$text-muted"),
            content(hit.title, single_line=True, style="bold"),
            where,
            "  ",
            snippet,
        )
        rows.append(((hit.article_id, hit.unit_id, hit.position), label))
    return rows
