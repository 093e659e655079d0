"""Triage: one proposed unit at a time beside its evidence; accept, reject, edit, skip, undo.

Units with validation errors cannot be accepted (the key is disabled) until an edit fixes them;
words the quote contradicts, or a sentence no quote backs, may instead be kept with a reason (!).
Fixing fast: b gives the cloze the card writer's next blank, S splits the unit in two, E makes
the selection in the evidence view (v, then grow it) its evidence, and e edits every question;
c / n on a selection make a card of yours. u undoes each step (accept all valid: the batch).
What importing the article said (why it got no unit, or few for its length) shows over its units.
`c` switches to the units whose source changed (re-import, sync) and whose quote is gone: each
is kept as it is (K) or retired to the trash (X); `u` undoes either. Each change is a command
run in a worker (core/services/commands: never a write on the UI thread).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from core.domain import StoredUnit
from core.domain.undo import Scope
from core.services.commands.authoring import NextBlank, SetEvidence, Split
from core.services.commands.curation import Accept, AcceptAllValid, KeepAnyway, KeepAsIs, Reject, Retire
from core.services.commands.undo import Undo
from core.text.words import plural
from tui.modals.reason import ReasonModal
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.screens.own_cards import OwnCards
from tui.screens.triage_saved import Saved, StepUndone, checked, saying
from tui.screens.type_ahead import TypeAhead, in_turn
from tui.widgets.key_bar import KeyBar
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.title_bar import TitleBar
from tui.widgets.triage_card import empty_lines, notices_line, progress_line, queue_name
from tui.widgets.unit_view import unit_details

if TYPE_CHECKING:
    from core.services.commands import Command
    from core.services.library import LibraryService
    from core.services.triage import TriageList

T = TypeVar("T")
FIXES = {"next_blank", "split", "evidence"}
# the keys that wait while a change made here is saved (its message shows the queue again)
WAIT_FOR_SAVE = {"accept", "reject", "edit", "skip", "undo", "accept_all", "low_confidence"}
WAIT_FOR_SAVE |= {"source_changed", "keep", "retire", "keep_anyway", *FIXES}


class TriageScreen(BaseScreen):
    """The proposal queue (of one article, or of the whole library)."""

    HELP_NAME = "Triage"
    AUTO_FOCUS = "#triage-evidence"  # the evidence view: select in it (v), its keys act on the unit
    BINDINGS = [
        Binding("a", "accept", "Accept", id="triage.accept"),
        Binding("r", "reject", "Reject", id="triage.reject"),
        Binding("e", "edit", "Edit", id="triage.edit"),
        Binding("s", "skip", "Skip", id="triage.skip"),
        Binding("u", "undo", "Undo", id="triage.undo"),
        Binding("A", "accept_all", "Accept all valid", id="triage.accept_all"),
        Binding("l", "low_confidence", "Low-confidence list", id="triage.low"),
        Binding("c", "source_changed", "Source-changed list", id="triage.changed"),
        Binding("K", "keep", "Keep (source changed)", id="triage.keep"),
        Binding("X", "retire", "Retire (source changed)", id="triage.retire"),
        Binding("o", "open_article", "Open article", id="triage.open"),
        Binding("b", "next_blank", "Next blank", id="triage.next_blank"),
        Binding("S", "split", "Split", id="triage.split"),
        Binding("E", "evidence", "Evidence = selection", id="triage.evidence"),
        Binding("exclamation_mark", "keep_anyway", "Keep anyway", id="triage.keep_anyway"),
    ]

    def __init__(self, article_id: int | None = None) -> None:
        super().__init__()
        self.article_id = article_id
        self.unit: StoredUnit | None = None
        self.skipped: list[int] = []
        self.low_confidence = False
        self.source_changed = False  # the list of units whose source changed, any status
        self.changed_waiting = 0  # how many wait for keep/retire (`c` is offered only then)
        self.ahead = TypeAhead(self)  # the queue's keys pressed while a change is saved
        self.cards = OwnCards(self, Scope.CURATION)  # c / n on a selection: a card of yours

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="triage-body"):
            with VerticalScroll(id="triage-card"):
                yield Static(id="triage-progress")
                yield Static(id="triage-notice")
                yield Static(id="triage-unit")
            yield ParagraphView(id="triage-evidence")
        yield KeyBar()

    def refresh_data(self) -> None:
        self.show_next()

    # --- the queue ------------------------------------------------------------------------

    def show_next(self, prefer: int | None = None) -> None:
        unit = None
        with self.reporting("loading proposals"):
            unit, over = self.services.triage.next_unit(self.article_id, self._list(), self.skipped, prefer)
            if over:
                self.skipped.clear()  # started over with the skipped ones
        self.unit = unit
        self.changed_waiting = 0
        with self.reporting("counting source-changed units"):
            self.changed_waiting = self.services.triage.changed_waiting()
        self._paint()
        self.refresh_bindings()

    def _list(self) -> TriageList:
        return "changed" if self.source_changed else "low" if self.low_confidence else "proposals"

    def _paint(self) -> None:
        card = self.query_one("#triage-unit", Static)
        progress = self.query_one("#triage-progress", Static)
        view = self.query_one(ParagraphView)
        if self.unit is None:
            self._paint_empty(progress, card)
            view.load(0, lambda s, n: [])
            return
        unit = self.unit
        article, waiting, first = None, "", None
        with self.reporting("reading the proposal's article"):
            library = self.services.library
            article = library.article(unit.article_id)
            waiting = self._waiting(library, article.proposed if article else 0)
            if article is not None and unit.evidence:
                first = library.paragraph(unit.article_id, unit.evidence[0].paragraph_id)
        self._paint_notices(unit.article_id)
        title = article.title if article else "?"
        queue = queue_name(source_changed=self.source_changed, low_confidence=self.low_confidence)
        progress.update(progress_line(waiting, queue, title))
        card.update(unit_details(unit, title))
        if article is not None:
            view.load(
                article.paragraph_count, self.paragraph_pages(unit.article_id), first.index if first else 0
            )
            view.set_evidence(unit.quotes_by_paragraph())
            view.go_to(first.index if first else 0, top=True)
            view.border_title = content(title, single_line=True)

    def _paint_notices(self, article_id: int | None) -> None:
        """What importing the article had to say, over its units; nothing when it said nothing."""
        notices: tuple[str, ...] = ()
        if article_id is not None:
            with self.reporting("reading the article's import notices"):
                notices = self.services.library.import_notices(article_id)
        box = self.query_one("#triage-notice", Static)
        box.display = bool(notices)
        if notices:
            box.update(notices_line(notices))

    def _paint_empty(self, progress: Static, card: Static) -> None:
        """Nothing left in the list shown: say so, and where the rest waits (and, for one
        article, what its import said: why it got no unit)."""
        self._paint_notices(self.article_id)
        parked: list[StoredUnit] = []
        if not self.low_confidence and not self.source_changed:
            with self.reporting("looking for parked proposals"):
                parked = self.services.library.units(self.article_id, ["proposed"], None, True, 1)
        line, text = empty_lines(
            source_changed=self.source_changed, parked=bool(parked), changed_waiting=self.changed_waiting
        )
        progress.update(line)
        card.update(text)

    def _waiting(self, library: LibraryService, in_article: int) -> str:
        """ "N proposals waiting" (in this article, or in the library), or the changed ones."""
        if self.source_changed:
            return f"{plural(self.changed_waiting, 'unit')} with a changed source waiting"
        waiting = in_article if self.article_id else library.unit_count("proposed")
        return f"{plural(waiting, 'proposal')} waiting"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in WAIT_FOR_SAVE and self.ahead.busy:
            return True  # kept for its turn (@in_turn): it acts on what is shown then
        if action in {"accept", "reject", "edit", "skip", "open_article", *FIXES} and self.unit is None:
            return None
        if action == "evidence":
            return bool(self.query_one(ParagraphView).selection)
        if action == "keep_anyway":
            return self.unit is not None and any(i.keepable and not i.kept for i in self.unit.issues)
        # hidden (False), not greyed, while nothing's source changed: the footer has no room
        if action == "source_changed":
            return bool(self.source_changed or self.changed_waiting)
        if action in {"keep", "retire"}:
            return self.unit is not None and self.unit.source_changed
        if action in {"accept", "reject"} and self.unit is not None and self.unit.status != "proposed":
            return None  # a confirmed unit in the source-changed list: keep or retire it
        if action == "accept" and self.unit is not None and not self.unit.acceptable:
            return None  # shown disabled: fix the errors first
        if action == "accept_all" and self.article_id is None and self.unit is None:
            return None
        return True

    def why_not(self, action: str) -> str | None:
        if self.unit is None:
            return "No proposal on screen: import articles (i on Home), or l for the low-confidence list"
        if action == "accept":
            return "This unit has validation errors: edit it (e) to fix them, then accept"
        if action == "evidence":
            return "Select the evidence in the article first: v, then grow it (shift+right, ), })"
        return None

    # --- actions: each change is a command run in a worker (core/services/commands) ---------
    # Another process holding the write lock never freezes the screen; the queue's keys wait
    # for the change (WAIT_FOR_SAVE), whose message shows the queue again.

    def write(
        self, command: Command[T], done: Callable[[T], Message], *, failed: Callable[[Exception], None]
    ) -> None:
        self.ahead.write(command, done, failed=failed)

    def _write(
        self,
        command: Command[T],
        done: Callable[[T], Message],
        *,
        again: bool = True,
        prefer: int | None = None,
    ) -> None:
        """`write`; not saved (refused, database busy): the app's notice says why, then the
        queue again (`again`) at `prefer`."""
        self.write(command, done, failed=partial(self._not_saved, again, prefer))

    def _not_saved(self, again: bool, prefer: int | None, error: Exception) -> None:
        self.ahead.failed()
        if again:
            self.show_next(prefer=prefer)

    def on_triage_screen_saved(self, message: Saved) -> None:
        if message.said:
            notify(self.app, message.said)
        self.show_next(prefer=message.prefer)
        self.ahead.shown()

    @in_turn
    def action_accept(self) -> None:
        if self.unit is not None:
            self._write(Accept(self.unit.id), saying("Accepted: its questions become cards"))

    @in_turn
    def action_reject(self) -> None:
        if self.unit is not None:
            self._write(Reject(self.unit.id), saying("Rejected"))

    @in_turn
    def action_skip(self) -> None:
        if self.unit is not None:
            self.skipped.append(self.unit.id)
        self.show_next()

    @in_turn
    def action_undo(self) -> None:
        self._write(Undo(Scope.CURATION, self.article_id), StepUndone, again=False)

    def on_triage_screen_step_undone(self, message: StepUndone) -> None:
        undone = message.result
        if undone is None:
            notify(self.app, "Nothing to undo")
        else:
            notify(self.app, undone.notice(), severity="warning" if undone.changed_since else "information")
            if undone.unit_id in self.skipped:
                self.skipped.remove(undone.unit_id)
            self.show_next(prefer=undone.unit_id)
        self.ahead.shown()

    @in_turn
    def action_accept_all(self) -> None:
        article_id = self.article_id or (self.unit.article_id if self.unit else None)
        if article_id is not None:
            said = lambda count: Saved(f"Accepted {plural(count, 'valid unit')} of this article")  # noqa: E731
            self._write(AcceptAllValid(article_id), said)

    @in_turn
    def action_low_confidence(self) -> None:
        self._show_list(low_confidence=not self.low_confidence)

    @in_turn
    def action_source_changed(self) -> None:
        self._show_list(source_changed=not self.source_changed)

    def _show_list(self, *, low_confidence: bool = False, source_changed: bool = False) -> None:
        """One list at a time: the low-confidence units, those whose source changed, or (neither)
        the proposals; the units skipped in the last one come back."""
        self.low_confidence, self.source_changed = low_confidence, source_changed
        self.skipped.clear()
        self.show_next()

    @in_turn
    def action_keep(self) -> None:
        if self.unit is not None:
            said = "Kept as it is: its quote stays as history of the earlier text (u undoes)"
            self._write(KeepAsIs(self.unit.id), saying(said))

    @in_turn
    def action_retire(self) -> None:
        if self.unit is not None:
            said = "Retired to the trash: its cards leave review (u undoes)"
            self._write(Retire(self.unit.id), saying(said))

    def action_open_article(self) -> None:
        if self.unit is not None:
            self.open_article(self.unit.article_id, unit_id=self.unit.id)

    @in_turn
    def action_edit(self) -> None:
        if self.unit is not None:
            self.edit_unit(self.unit, with_errors="Edit saved with validation errors: fix before accepting")

    def edit_not_saved(self, unit_id: int) -> None:
        """The keys typed after the edit were meant for the edited unit: they go."""
        self.ahead.failed()
        self.show_next(prefer=unit_id)

    def unit_edited(self, unit_id: int) -> None:
        self.show_next(prefer=unit_id)
        self.ahead.shown()

    # --- fixing a proposal in one step (issue 16): b, S, E, ! ------------------------------
    # The card writer's steps (b, S) read the whole article the first time (its word counts:
    # seconds on a very long one); every step is a curation event, so `u` takes it back.

    @in_turn
    def action_next_blank(self) -> None:
        if self.unit is not None:
            unit_id = self.unit.id
            said = checked("Next blank (u undoes)", "Next blank: it has validation errors", unit_id)
            self._write(NextBlank(unit_id), said, again=False)

    @in_turn
    def action_split(self) -> None:
        if self.unit is not None:
            said = "Split in two: this is the first part, the second is next (u undoes)"
            unit_id = self.unit.id
            self._write(Split(unit_id), lambda _: Saved(said, unit_id), again=False)

    @in_turn
    def action_evidence(self) -> None:
        view = self.query_one(ParagraphView)
        if self.unit is not None and view.selection:
            unit_id = self.unit.id
            said = checked("Evidence changed", "Evidence changed: it has validation errors", unit_id)
            self._write(SetEvidence(unit_id, tuple(view.selected_spans())), said, prefer=unit_id)

    @in_turn
    def action_keep_anyway(self) -> None:
        unit = self.unit
        first = next((i for i in unit.issues if i.keepable and not i.kept), None) if unit else None
        if unit is None or first is None:
            return

        def done(reason: str | None) -> None:
            if reason:
                said = saying("Kept with your reason: it can be accepted now (u undoes)", unit.id)
                self._write(KeepAnyway(unit.id, reason), said, prefer=unit.id)

        question = (
            "Keep it anyway? Why is the quote's fact not what it says:"
            if first.code.startswith("claim_contradicts_")
            else "Keep it anyway? Why keep words its quotes do not back:"
        )
        self.app.push_screen(ReasonModal(question, first.message), done)

    # --- cards of yours (c / n on a selection in the evidence view) -------------------------

    def _card_article(self) -> int | None:
        return self.unit.article_id if self.unit is not None else self.article_id

    def on_paragraph_view_make_card(self, event: ParagraphView.MakeCard) -> None:
        self.cards.make(self._card_article(), event)

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        self.refresh_bindings()  # (E: evidence = selection)
        self.cards.read_ahead(self._card_article(), event)

    def on_own_cards_draft_written(self, message: OwnCards.DraftWritten) -> None:
        self.cards.open_form(message)

    def on_own_cards_card_saved(self, message: OwnCards.CardSaved) -> None:
        self.cards.saved(message)
        self.cards.say(message.what)
