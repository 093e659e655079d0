"""Search the library from anywhere (`/`): type, see matching paragraphs/units, enter to open.

Below the field, the filters (tui.widgets.search_filters: ctrl+f, then one key each) and a
line with the result count ("23 results") and, when a word of the query is not in the library,
the words searched instead ("showing results for photosynthesis"; ctrl+o searches the words
as typed). The hit chosen opens on top of the search, which stays as it is beneath: escape on
the article comes back to the words, the hits and the one chosen (issue 32: it went Home). The
app records the open (the ranking's use signal).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from core.domain.search import SearchFilters, SearchHit, SearchResult
from core.text import sanitize
from core.text.words import plural
from tui import runner
from tui.messages import OpenBrowse, SearchHitOpened
from tui.modals.once import Modal
from tui.reporting import Reporting
from tui.safe import content
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar
from tui.widgets.search_filters import FilterBar

if TYPE_CHECKING:
    from core.services.bootstrap import Services
    from tui.screens.base import Host

LIMIT = 50


@dataclass(frozen=True)
class _Ask:
    """One search to run: the words, the filters, and whether typos may be corrected."""

    query: str
    filters: SearchFilters
    correct: bool


class SearchModal(Modal[None]):
    """Opens the hits chosen on top of itself; escape here closes it."""

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="search.close"),
        Binding("ctrl+f", "focus_filters", "Filters", id="search.filters"),
        Binding("ctrl+o", "as_typed", "Search as typed", id="search.as_typed"),
        Binding("ctrl+b", "browse", "Browse these", id="search.browse"),
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
            yield FilterBar(id="search-filters")
            yield Label("", id="search-count", classes="hint")
            yield OptionList(id="search-results")
        yield KeyBar()

    @property
    def services(self) -> Services:
        return cast("Host", self.app).services

    def on_mount(self) -> None:
        self._hits: list[SearchHit] = []
        self._corrected = False  # the hits shown are for corrected words
        self._exact = False  # ctrl+o: the words as typed, until they change
        self._asked: _Ask | None = None  # the latest search: only its hits are shown
        self.query_one(Input).focus()

    # --- searching ------------------------------------------------------------------------

    def _search(self) -> None:
        query = self.query_one(Input).value.strip()
        filters = self.query_one(FilterBar).filters
        self._asked = _Ask(query, filters, correct=not self._exact)
        self.run_search(self._asked)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._exact = False
        self._search()

    def on_filter_bar_changed(self, event: FilterBar.Changed) -> None:
        self._search()

    @dataclass
    class Searched(Message):
        """The search `ask` was run (`result` None: no words to search). Handled by
        `on_search_modal_searched`."""

        ask: _Ask
        result: SearchResult | None

    def run_search(self, ask: _Ask) -> None:
        """In a worker: query the services; `Searched` brings the result."""
        runner.start(
            self, "searching", partial(find, self.app, ask), partial(self.Searched, ask), exclusive=True
        )

    def on_search_modal_searched(self, message: Searched) -> None:
        self._show(message.ask, message.result)

    def _show(self, ask: _Ask, result: SearchResult | None) -> None:
        if ask is not self._asked:  # a later search is running: its hits are the ones to show
            return
        results = self.query_one(OptionList)
        results.clear_options()
        hits = list(result.hits[:LIMIT]) if result is not None else []
        self._hits = hits
        self._corrected = result is not None and result.showing_results_for is not None
        results.add_options([Option(hit_label(hit)) for hit in hits])
        self.query_one("#search-count", Label).update(count_line(result, ask))
        if result is not None and not hits:  # say so, rather than show nothing
            results.add_option(
                Option(
                    Content.styled("No matches: try other or fewer words, or fewer filters.", "italic"),
                    disabled=True,
                )
            )
        self.refresh_bindings()

    # --- keys -----------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self._hits:
            self._open(self._hits[0])

    def action_focus_results(self) -> None:
        results = self.query_one(OptionList)
        results.focus()
        if results.highlighted is None and results.option_count:
            results.highlighted = 0  # down lands on the first result (enter opens it)

    def action_focus_filters(self) -> None:
        self.query_one(FilterBar).focus()

    def action_as_typed(self) -> None:
        self._exact = True
        self._search()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_input":  # up from the first result (or an empty list) goes back to typing
            results = self.query_one(OptionList)
            bar = self.query_one(FilterBar)
            return bar.has_focus or (results.has_focus and (results.highlighted or 0) == 0)
        if action == "as_typed":
            return self._corrected  # offered only while the hits are for corrected words
        return True

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._open(self._hits[event.option_index])

    def _open(self, hit: SearchHit) -> None:
        """The hit's article on top of the search, at once (the next key runs on it:
        tui/typed_on.py); escape there comes back here."""
        from tui.screens.article import ArticleScreen

        self.app.post_message(SearchHitOpened(hit))
        position = hit.position if hit.unit_id is None and hit.position >= 0 else None
        self.app.push_screen(ArticleScreen(hit.article_id, unit_id=hit.unit_id, paragraph=position))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_browse(self) -> None:
        """Browse's table on the words typed (its filter line reads them: words and terms)."""
        query = self.query_one("#search-input", Input).value.strip()
        self.dismiss(None)
        self.app.post_message(OpenBrowse(query))

    def on_filter_bar_pick(self, event: FilterBar.Pick) -> None:
        from tui.modals.pick import PickModal

        bar = self.query_one(FilterBar)
        if event.kind == "tag":
            tags: list[tuple[str, int]] = []
            with Reporting(self.app, "listing the tags"):
                tags = self.services.search.tags()
            entries = [(tag, tag, plural(n, "unit")) for tag, n in tags]
            self.app.push_screen(
                PickModal("Filter by tag", entries, anything="any tag"),
                lambda tag: None if tag is None else bar.choose("tag", tag),
            )
            return
        articles = []
        with Reporting(self.app, "listing the articles"):
            articles = self.services.library.articles()
        titles = {str(a.id): a.title for a in articles}
        entries = [(str(a.id), a.title, "") for a in articles]

        def chosen(key: str | None) -> None:
            if key is not None:
                bar.choose("article", titles.get(key, ""), int(key) if key else None)

        self.app.push_screen(PickModal("Filter by article", entries, anything="any article"), chosen)


def find(app: Any, ask: _Ask) -> SearchResult | None:
    """The search service's result for one ask (LIMIT + 1 hits: the count can say "more than");
    None with no words (the filters alone: the count line says to type some)."""
    if not ask.query:
        return None
    return app.services.search.find(ask.query, LIMIT + 1, ask.filters, correct=ask.correct)  # type: ignore[no-any-return]


def count_line(result: SearchResult | None, ask: _Ask) -> Content:
    """ "23 results", "more than 50 results", and the words searched instead of a typo."""
    if result is None:
        return Content("Type words to search within these filters." if ask.filters != SearchFilters() else "")
    n = len(result.hits)
    count = (
        f"more than {plural(LIMIT, 'result')}: the best {LIMIT} shown" if n > LIMIT else plural(n, "result")
    )
    if result.showing_results_for is None:
        return Content(count)
    return Content.assemble(
        count,
        " · showing results for ",
        content(result.showing_results_for, single_line=True, style="bold"),
        ("  (ctrl+o: search the words as typed)", "$text-muted"),
    )


def hit_label(hit: SearchHit) -> Content:
    """One result line: kind, article title (bold), the snippet with matched words highlighted."""
    snippet = Content(sanitize(hit.snippet, single_line=True))
    for start, end in hit.highlights:
        snippet = snippet.stylize("bold $accent", start, end)
    kind = "unit" if hit.unit_id is not None else hit.paragraph_id or "¶"
    label = hit.locator.label(under=hit.title) if hit.locator else ""  # the title is said before it
    where = content(f" · {label}", single_line=True, style="$text-muted") if label else ""
    return Content.assemble(
        (f"{kind:<6}", "$text-muted"),
        content(hit.title, single_line=True, style="bold"),
        where,
        "  ",
        snippet,
    )
