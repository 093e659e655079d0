"""Article: paragraphs with ids on the left, the article's units on the right.

Moving through units highlights their evidence paragraphs and the quoted spans and scrolls to
them; `[` / `]` jump between evidence spans; filters by status and type; the reading position
is remembered per article. `s` shows the summary and core ideas in place of the units, and `m`
makes a unit of yours of the highlighted idea. The screen composes its lists
(tui/widgets/unit_pages.py: the units a page at a time, the ideas) and holds an OwnCards
(tui/screens/own_cards.py), which makes cards of yours of its selection as Review and Triage do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import OptionList, Static

from core.domain import MEMORY_TYPES, StoredUnit
from core.domain.undo import Scope
from core.services.commands.authoring import MakeIdeaUnit
from core.services.commands.library import RememberPosition
from core.services.commands.undo import Undo
from tui import runner
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.screens.own_cards import OwnCards
from tui.widgets.key_bar import KeyBar
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.title_bar import TitleBar
from tui.widgets.unit_pages import UNIT_PAGE, IdeaList, UnitPages, UnitsLine
from tui.widgets.unit_view import unit_details

if TYPE_CHECKING:
    from core.domain.undo import Undone  # noqa: F401 (read by mypy in StepUndone's base)

STATUS_FILTERS: tuple[str | None, ...] = (None, "proposed", "confirmed", "rejected")
TYPE_FILTERS: tuple[str | None, ...] = (None, *MEMORY_TYPES)
FIRST_UNITS = 40  # the first page is a screenful or two, so the article paints at once
SAID_SECONDS = 4.0  # how long the line above the units says a card was saved (a key ends it sooner)


class ArticleScreen(BaseScreen):
    """The evidence browser for one article."""

    HELP_NAME = "Article"
    BINDINGS = [
        Binding("n", "unit(1)", "Next unit", id="article.next_unit"),
        Binding("p", "unit(-1)", "Prev unit", id="article.prev_unit"),
        Binding("right_square_bracket", "span(1)", "Next evidence", id="article.next_span"),
        Binding("left_square_bracket", "span(-1)", "Prev evidence", id="article.prev_span"),
        Binding("f", "status_filter", "Filter status", id="article.filter_status"),
        Binding("y", "type_filter", "Filter type", id="article.filter_type"),
        Binding("t", "triage", "Triage", id="article.triage"),
        Binding("u", "undo", "Undo", id="article.undo"),
        Binding("s", "ideas", "Summary & ideas", id="article.ideas"),
        Binding("m", "idea_unit", "Unit of this idea", id="article.idea_unit"),
        Binding("i", "card_info", "Card info", id="article.info"),
        Binding("g", "yours", "Your new unit in the list", show=False, id="article.yours"),
        Binding("tab", "app.focus_next", "Switch pane", show=False, id="article.focus"),
    ]

    def __init__(self, article_id: int, *, unit_id: int | None = None, paragraph: int | None = None) -> None:
        super().__init__()
        self.article_id = article_id
        self.initial_unit = unit_id
        self.initial_paragraph = paragraph
        self.status_filter: str | None = None
        self.type_filter: str | None = None
        self.span_index = -1
        self._position = 0
        self._scroll = True
        self._fresh = True
        self._shown_unit: StoredUnit | None = None  # the unit whose details and evidence are shown
        self._article_title = ""  # its units' context lines start with it
        self._details_height: tuple[int, int] | None = None  # (width, lines) of the card shown
        self.pages = UnitPages(id="article-units")
        self.ideas = IdeaList(id="article-ideas")
        self.line = UnitsLine(self.pages, id="article-filter")  # above the units: count, filters
        self.cards = OwnCards(self, Scope.CURATION)  # c / n on a selection: a card of yours

    @property
    def units(self) -> list[StoredUnit]:
        """The units listed (the pages loaded so far, and yours listed after them)."""
        return self.pages.units

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="article-body"):
            yield ParagraphView(id="article-text")
            with Vertical(id="article-side"):
                yield self.line
                yield self.pages
                yield self.ideas
                yield Static(id="article-unit")
        yield KeyBar()

    def on_mount(self) -> None:
        info, start = None, 0
        with self.reporting("opening the article"):
            info = self.services.library.article(self.article_id)
            start = self.services.library.reading_position(self.article_id)
        view = self.query_one(ParagraphView)
        if info is None:
            self.query_one("#article-filter", Static).update(Content("This article no longer exists."))
            return
        self._article_title = info.title
        self.query_one("#article-text").border_title = content(info.title, single_line=True)
        if self.initial_paragraph is not None and self.initial_paragraph >= 0:
            start = self.initial_paragraph
        view.load(info.paragraph_count, self.paragraph_pages(self.article_id), start)
        view.go_to(start, top=True)
        self._load_units(select=self.initial_unit, scroll=self.initial_unit is not None)
        if self.initial_unit is not None:
            self.query_one("#article-units", OptionList).focus()
        else:
            view.focus()

    def _load_units(self, select: int | None = None, *, scroll: bool = True) -> None:
        self.line.said = ""
        first = FIRST_UNITS if select is None else UNIT_PAGE  # a unit asked for: look further for it
        options = self.pages
        options.load(self._fetch_units, first)
        self._update_count()
        if self.units:
            index = next((i for i, u in enumerate(self.units) if u.id == select), 0)
            self._scroll = scroll
            options.highlighted = index
            self._show_unit(index, scroll=scroll)
        else:
            self._shown_unit = None
            options.say_none(self.status_filter, self.type_filter)
            self.query_one("#article-unit", Static).update(Content(""))
            self.query_one(ParagraphView).set_evidence({})

    def _update_count(self) -> None:
        self.line.show(self.status_filter, self.type_filter)

    def refresh_data(self) -> None:
        if self._fresh:  # just mounted: on_mount loaded everything already
            self._fresh = False
            return
        if self.is_mounted and self.units:
            current = self.pages.highlighted
            keep = self.units[current].id if current is not None and current < len(self.units) else None
            self._load_units(select=keep, scroll=False)

    # --- unit navigation ------------------------------------------------------------------

    def _fetch_units(self, limit: int, offset: int) -> list[StoredUnit]:
        """A page of the article's units under the current filters ([] after a reported error)."""
        statuses = [self.status_filter] if self.status_filter else ["proposed", "confirmed", "rejected"]
        with self.reporting("loading units"):
            return self.services.library.units(
                self.article_id, statuses, self.type_filter, None, limit, offset
            )
        return []

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.pages:
            return  # the ideas list: nothing to show beside it
        loaded = self.pages.loaded
        if self.pages.more and loaded - 5 <= event.option_index < loaded:
            self._load_more()
        scroll, self._scroll = self._scroll, True
        self._show_unit(event.option_index, scroll=scroll)

    def _show_unit(self, index: int, *, scroll: bool = True) -> None:
        while self.pages.more and index >= len(self.units):  # a unit past the pages loaded so far
            self._load_more()
        if not 0 <= index < len(self.units):
            return
        unit = self.units[index]
        if unit == self._shown_unit and not scroll:
            return  # already shown as it is: the highlight message that follows a direct call
        if self._shown_unit is not None and unit.id != self._shown_unit.id:
            self.line.unsay()  # another unit: the reader has moved on from the saved one
        self._shown_unit = unit
        at = self._paragraph_index(unit.evidence[0].paragraph_id) if scroll and unit.evidence else None
        self.query_one(ParagraphView).set_evidence(unit.quotes_by_paragraph(), at=at)
        self._show_details(unit_details(unit, self._article_title))

    def _show_details(self, details: Content) -> None:
        """The unit's card under the list. A card as tall as the one it replaces needs no new
        layout, only a repaint of the panel (a layout redraws the whole screen)."""
        panel = self.query_one("#article-unit", Static)
        width = panel.content_region.width
        height = (width, details.get_height(panel.styles, width)) if width else None
        same = height is not None and height == self._details_height
        self._details_height = height
        panel.update(details, layout=not same)

    def _go_to_paragraph(self, paragraph_id: str) -> None:
        index = self._paragraph_index(paragraph_id)
        if index is not None:
            self.query_one(ParagraphView).go_to(index)

    def _paragraph_index(self, paragraph_id: str) -> int | None:
        """Where the paragraph is: in the view's fetched pages, else read (None if gone)."""
        index = self.query_one(ParagraphView).index_of(paragraph_id)
        if index is None:
            with self.reporting("finding the evidence"):
                para = self.services.library.paragraph(self.article_id, paragraph_id)
                index = para.index if para is not None else None
        return index

    def _load_more(self) -> None:
        if self.pages.load_more():
            self._scroll = False  # the same unit, moved down: nothing to show again

    def action_unit(self, delta: int) -> None:
        options = self.pages
        if not self.units:
            return
        current = options.highlighted if options.highlighted is not None else -delta
        options.highlighted = max(0, min(len(self.units) - 1, current + delta))

    def action_span(self, delta: int) -> None:
        """Jump to the next / previous evidence span, across units in list order."""
        spans = [(i, e.paragraph_id) for i, u in enumerate(self.units) for e in u.evidence]
        if not spans:
            return
        self.span_index = (self.span_index + delta) % len(spans)
        unit_index, paragraph_id = spans[self.span_index]
        options = self.pages
        if options.highlighted != unit_index:
            options.highlighted = unit_index
            self._show_unit(unit_index)
        self._go_to_paragraph(paragraph_id)

    def action_status_filter(self) -> None:
        i = STATUS_FILTERS.index(self.status_filter)
        self.status_filter = STATUS_FILTERS[(i + 1) % len(STATUS_FILTERS)]
        self._load_units()

    def action_type_filter(self) -> None:
        i = TYPE_FILTERS.index(self.type_filter)
        self.type_filter = TYPE_FILTERS[(i + 1) % len(TYPE_FILTERS)]
        self._load_units()

    def action_card_info(self) -> None:
        from tui.modals.card_info import CardInfoModal

        unit = self._shown_unit
        cards = None
        if unit is not None:
            with self.reporting("reading the cards"):
                cards = self.services.review.cards_of_unit(unit.id)
        if not cards:
            notify(self.app, "This unit has no cards: confirm it first (t: triage)", severity="warning")
            return
        self.app.push_screen(CardInfoModal(self.services, tuple(c.id for c in cards)))

    def action_triage(self) -> None:
        from tui.screens.triage import TriageScreen

        self.app.push_screen(TriageScreen(self.article_id))

    # --- cards of yours -------------------------------------------------------------------

    def on_paragraph_view_make_card(self, event: ParagraphView.MakeCard) -> None:
        self.cards.make(self.article_id, event)

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        self.cards.read_ahead(self.article_id, event)

    def on_own_cards_draft_written(self, message: OwnCards.DraftWritten) -> None:
        self.cards.open_form(message)

    def on_own_cards_card_saved(self, message: OwnCards.CardSaved) -> None:
        self.cards.saved(message)
        self._card_made(message.unit_id)
        self._card_said(message.what)

    def _card_said(self, what: str) -> None:
        """In the line above the units, in place of the filters (a save shows them all), not in
        a toast; it goes at the next key, or after SAID_SECONDS."""
        where = " (g lists it)" if self.pages.unlisted else ""  # before what a narrow line cuts
        # (u undoes: in the key line)
        self.line.say(f"✓ {what} saved as yours{where}, in today's session", SAID_SECONDS)

    def _card_made(self, unit_id: int) -> None:
        """A unit of yours sorts last: with every unit listed it is added at the end and
        highlighted (the list is not read again); with pages still to load it waits for `g`
        (tui/widgets/unit_pages.py), not in the save's frame: a longer list lays the screen out
        again, ~20 ms on the bench's 1M-unit library. Filters are cleared to show it."""
        if self.status_filter or self.type_filter or not self.units:
            self.status_filter = self.type_filter = None
            self._load_units(select=unit_id, scroll=False)
        elif self.pages.more:
            self.pages.unlisted.append(unit_id)
        else:
            self._list_yours([unit_id])

    def action_yours(self) -> None:
        """`g`: your units made while the list had pages still to load, listed at its end, the
        last one highlighted and shown."""
        unlisted, self.pages.unlisted = self.pages.unlisted, []
        self._list_yours(unlisted)

    def _list_yours(self, unit_ids: list[int]) -> None:
        made: list[StoredUnit] = []
        with self.reporting("listing your card"):
            made = [u for u in map(self.services.library.unit, unit_ids) if u is not None]
        if not made:
            return
        self._scroll = False
        self.pages.add_yours(made)
        # shown now, with the list's new line, so both are laid out in one frame (the
        # highlight's message would show it a frame later: then it has nothing to do)
        self._show_unit(len(self.units) - 1, scroll=False)
        self._update_count()

    def action_ideas(self) -> None:
        """Show the article's summary and core ideas (each with its quote) instead of its
        units, and back."""
        showing = not self.ideas.display
        if showing:
            output = None
            with self.reporting("reading the summary and core ideas"):
                output = self.services.authoring.ideas(self.article_id)
            self.ideas.show(output)
        self.ideas.display, self.pages.display = showing, not showing
        (self.ideas if showing else self.pages).focus()
        self.refresh_bindings()

    def action_idea_unit(self) -> None:
        """A unit of yours of the highlighted core idea (its words, its quote), made in a worker:
        the card writer reads the whole article the first time."""
        index = self.ideas.chosen()
        if index is None:
            return
        self.action_ideas()  # back to the units, where the new one will be highlighted
        view = self.query_one(ParagraphView)
        saved = lambda made: OwnCards.CardSaved(view, made.unit_id, "Unit of the idea")  # noqa: E731
        runner.run(self, MakeIdeaUnit(self.article_id, index), saved, group="own-cards")

    def on_key(self, event: events.Key) -> None:
        """Any key after a save ends its line (before the key acts: a second save says its own;
        BaseScreen.on_key runs too, Textual calls each class's handler)."""
        self.line.unsay()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "yours":
            return bool(self.pages.unlisted)
        if action == "idea_unit":
            return self.is_mounted and bool(self.ideas.display) and self.ideas.ideas > 0
        return True

    class StepUndone(runner.Done["Undone | None"]):
        """The last curation step in this article was taken back (None: nothing to undo).
        Handled by `on_article_screen_step_undone`."""

    def action_undo(self) -> None:
        """Undo the last curation step in this article (a card you made goes to the trash)."""
        runner.run(self, Undo(Scope.CURATION, self.article_id), self.StepUndone, failed=self._undone)

    def on_article_screen_step_undone(self, message: StepUndone) -> None:
        notify(self.app, "Nothing to undo" if message.result is None else message.result.notice())
        self._undone()

    def _undone(self, error: Exception | None = None) -> None:
        """Undone, or not (the app's notice said why): the units as they are now."""
        self._fresh = False
        self.refresh_data()

    # --- reading position -----------------------------------------------------------------

    def on_paragraph_view_cursor_moved(self, event: ParagraphView.CursorMoved) -> None:
        self._position = event.index
        view = self.query_one(ParagraphView)
        para = view.paragraph_at(event.index)  # already fetched: the cursor is on screen
        where = para.locator.label(under=self._article_title) if para is not None and para.locator else ""
        view.show_subtitle(
            Content.assemble(
                f"¶ {event.index + 1}/{view.count}",
                content(f" · {where}" if where else "", single_line=True),
            )
        )

    def on_screen_suspend(self) -> None:
        self._remember()

    def on_unmount(self) -> None:
        self._remember()

    def _remember(self) -> None:
        """In a worker that outlives the screen (it is being left)."""
        runner.run(self, RememberPosition(self.article_id, self._position), outlive=True)
