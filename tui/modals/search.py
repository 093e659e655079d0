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

from tui.safe import content

LIMIT = 50


class SearchModal(ModalScreen[int | None]):
    """Returns the id of the article to open, or None."""

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="search.close"),
        Binding("down", "focus_results", "Results", show=False, id="search.results"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="search-dialog"):
            yield Label(Content.styled("Search the library", "bold"))
            yield Input(placeholder="words from titles, units, questions …", id="search-input")
            yield OptionList(id="search-results")

    def on_mount(self) -> None:
        self._targets: list[int] = []
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value.strip())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self._targets:
            self.dismiss(self._targets[0])

    def action_focus_results(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._targets[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)

    @work(thread=True, exclusive=True, name="search", exit_on_error=False)
    def run_search(self, query: str) -> None:
        """Thread worker: query the services, then hand the rows to the UI thread."""
        rows = find(self.app, query) if query else []
        self.app.call_from_thread(self._show, rows)

    def _show(self, rows: list[tuple[int, Content]]) -> None:
        results = self.query_one(OptionList)
        results.clear_options()
        self._targets = [article_id for article_id, _ in rows]
        results.add_options([Option(label) for _, label in rows])


def find(app: Any, query: str) -> list[tuple[int, Content]]:
    """(article id, label) pairs: the search service when present, else title matches."""
    services = app.services
    search = getattr(services, "search", None)
    rows: list[tuple[int, Content]] = []
    if search is not None:
        for hit in search.search(query, limit=LIMIT):
            article_id = getattr(hit, "article_id", None)
            if article_id is None:
                continue
            text = getattr(hit, "snippet", "") or getattr(hit, "content", "") or getattr(hit, "title", "")
            title = getattr(hit, "article_title", "") or getattr(hit, "title", "")
            rows.append(
                (
                    int(article_id),
                    Content.assemble(
                        content(title, single_line=True, style="bold"), "  ", content(text, single_line=True)
                    ),
                )
            )
        return rows
    for a in services.library.find_articles(query)[:LIMIT]:
        rows.append(
            (
                a.id,
                Content.assemble(
                    content(a.title, single_line=True, style="bold"),
                    (f"  {a.paragraph_count} paragraphs", "$text-muted"),
                ),
            )
        )
    return rows
