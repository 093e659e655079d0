"""Review: question → reveal (space) → answer + evidence with the quote highlighted → rate 1–4.

The rating keys are only active after the reveal (check_action + refresh_bindings). Undo, edit,
suspend, bury, pin and open-the-source work on the current card; a summary ends the session.
Every change made here (an answer, undo, suspend, bury, pin) is a typed command
(core/services/commands) run in a worker: another process holding the database lock (up to the
busy timeout) never freezes the screen; the card's keys wait until the change is saved, and the
next card follows its message. The screen itself only reads: the session starts with the
`StartSession` command (the burials that ended are lifted on the writer thread), and a new review
day met while reviewing (at the rollover) is built without its unbury, which the `CatchUp`
command does (waiting for a held lock); the buried cards join after.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from core.domain import SourceParagraph
from core.domain.review import ReviewItem, UndoResult
from core.domain.undo import Scope
from core.services.commands import Command
from core.services.commands.review import Answer, CatchUp, Pin, SetAside, StartSession
from core.services.commands.undo import Undo
from tui import runner
from tui.safe import notify
from tui.screens import review_keys
from tui.screens.base import BaseScreen
from tui.screens.evidence_select import EvidenceSelect
from tui.screens.own_cards import OwnCards
from tui.screens.review_saved import (
    AnswerSaved,
    DayCaughtUp,
    Pinned,
    SessionStarted,
    SetAsideDone,
    StepUndone,
)
from tui.screens.type_ahead import TypeAhead, in_turn
from tui.widgets.key_bar import KeyBar
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.review_card import (
    answer_view,
    evidence_view,
    finished,
    meta_line,
    progress_line,
    question_view,
    ratings_bar,
    reveal_bar,
)
from tui.widgets.title_bar import TitleBar

TALL = 40  # rows from which the question card gets more room
SHORT = 30  # rows below which it gets less
FIRST_CARD_WAIT_S = 0.15  # how long mounting waits for the session start to paint its first card
T = TypeVar("T")


class ReviewScreen(BaseScreen):
    """Today's session, one card at a time."""

    HELP_NAME = "Review"
    BINDINGS = [
        Binding("space", "reveal", "Reveal", id="review.reveal"),
        Binding("1", "rate(1)", "Again", id="review.again"),
        Binding("2", "rate(2)", "Hard", id="review.hard"),
        Binding("3", "rate(3)", "Good", id="review.good"),
        Binding("4", "rate(4)", "Easy", id="review.easy"),
        Binding("u", "undo", "Undo", id="review.undo"),
        Binding("e", "edit", "Edit", id="review.edit"),
        Binding("x", "suspend", "Suspend", id="review.suspend"),
        Binding("b", "bury", "Bury", id="review.bury"),
        Binding("o", "open_source", "Source", id="review.open"),
        Binding("i", "card_info", "Card info", id="review.info"),
        # lesser keys: in ? help and the palette, not the footer (it fits 160 columns whole)
        Binding("p", "pin", "Pin", id="review.pin", show=False),
        Binding("v", "select_evidence", "Select in evidence", id="review.select", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.item: ReviewItem | None = None
        self.revealed = False
        self.shown_at = 0.0
        self.answered: list[int] = []  # the card of each answer given here (undo takes the last)
        self.ahead = TypeAhead(self)  # the card's keys pressed while a change is saved
        # c / n on a selection of the evidence (v): a card of yours, undone here with the answers
        self.cards = OwnCards(self, Scope.REVIEW)
        self.selecting = EvidenceSelect(self)  # v: the evidence in a paragraph view, to select in
        self._progress_timer: Timer | None = None
        self._started_in_time = False  # the session's start came within the mount's wait

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="review-progress")
        with VerticalScroll(id="review-body"):
            with Vertical(id="review-card"):
                yield Static(id="review-meta")
                yield Static(id="review-question")
            yield Static(id="review-answer")
            yield Static(id="review-evidence")
            yield ParagraphView(id="review-select")
        yield Static(id="review-ratings")
        yield KeyBar()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height >= TALL, "-tall")
        self.set_class(event.size.height < SHORT, "-short")

    async def on_mount(self) -> None:
        # Today's session is started on the writer thread (an unbury that never waits for a held
        # lock: ~1 ms), and the first card is painted once it is, before this returns. Started
        # later than FIRST_CARD_WAIT_S (a slow write queued before it), the card comes from the
        # queue as it is, and SessionStarted shows what the start brought (`_queue_rebuilt`).
        started = runner.run(self, StartSession(), SessionStarted)
        self._started_in_time = await runner.result_within(started, FIRST_CARD_WAIT_S) is not None
        self.next_card()

    def refresh_data(self) -> None:
        """Back from Help, the palette, search or an edit: the card may have been edited or
        trashed meanwhile; the same card keeps its revealed answer (it was hidden again)."""
        if self.item is not None:
            self.next_card(keep_revealed=True)

    # --- showing ------------------------------------------------------------------------------

    def next_card(self, *, keep_revealed: bool = False) -> None:
        shown = self.item.card.id if self.item is not None else None
        self.item = None
        waiting = False
        with self.reporting("loading the next card"):
            self.item = self.services.review.next_card(lift=False)
            waiting = self.services.review.rollover_waiting()
        same = keep_revealed and self.item is not None and self.item.card.id == shown
        if not same:  # (the same card keeps its answer shown and its answer time running)
            self.revealed = False
            self.shown_at = time.monotonic()
        self._paint()
        if waiting:  # a new day's unbury is due (this read left it, or a held lock): a worker does it
            self.catch_up()
        # check_action gates the keys at once; the footer (a recompose) follows after the card
        # has been painted, so rating -> next card is not held up by it.
        self.call_after_refresh(self.refresh_bindings)

    def _update_progress(self) -> None:
        with self.reporting("reading the session"):
            summary = self.services.review.summary(lift=False)
            self.query_one("#review-progress", Static).update(progress_line(summary))
            if self.item is None:
                self.query_one("#review-question", Static).update(finished(summary, self.answered))

    def _paint(self) -> None:
        self._close_selecting()
        # The session summary costs a few queries: refresh it once the user pauses, so the
        # next card is painted first (rating -> next card stays within a frame).
        if self._progress_timer is not None:
            self._progress_timer.stop()
        self._progress_timer = self.set_timer(0.3, self._update_progress)
        card, meta = self.query_one("#review-card"), self.query_one("#review-meta", Static)
        question = self.query_one("#review-question", Static)
        answer = self.query_one("#review-answer", Static)
        evidence = self.query_one("#review-evidence", Static)
        ratings = self.query_one("#review-ratings", Static)
        if self.item is None:
            card.set_class(True, "-finished")
            meta.update(Content(""))
            question.update(finished(None, self.answered))
            answer.display = evidence.display = ratings.display = False
            return
        item = self.item
        card.set_class(False, "-finished")
        meta.update(meta_line(item))
        question.update(question_view(item))
        ratings.display = True
        if not self.revealed:
            answer.display = evidence.display = False
            ratings.update(reveal_bar())
            return
        answer.display = True
        answer.update(answer_view(item))
        ratings.update(ratings_bar(item))
        shown = self._evidence(item)
        evidence.display = shown is not None
        if shown is not None:
            evidence.update(evidence_view(item.article_title, shown))

    def _evidence(self, item: ReviewItem) -> list[tuple[SourceParagraph, tuple[str, ...]]] | None:
        """The card's evidence paragraphs, each with its quotes (None: its unit is gone, or the
        read failed: reported)."""
        with self.reporting("reading the evidence"):
            library = self.services.library
            unit = library.unit(item.unit_id)
            return library.evidence(unit) if unit is not None else None
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return review_keys.allowed(action, self.item, self.revealed, self.ahead.busy)

    def why_not(self, action: str) -> str | None:
        return review_keys.why_not(action, self.item)

    # --- actions --------------------------------------------------------------------------------

    @in_turn
    def action_reveal(self) -> None:
        self.ahead.ran()
        self.revealed = True
        self._paint()
        self.call_after_refresh(self.refresh_bindings)

    @in_turn
    def action_rate(self, rating: int) -> None:
        if self.item is None or not self.revealed or self.ahead.saving:
            return
        card_id, duration_ms = self.item.card.id, int((time.monotonic() - self.shown_at) * 1000)
        self._write(Answer(card_id, rating, duration_ms), partial(AnswerSaved, card_id))

    def _write(self, command: Command[T], done: Callable[[T], Message]) -> None:
        """Every change made here runs as a command in a worker, one at a time: the card's keys
        wait for it (review_keys.WAIT_FOR_SAVE), and another process holding the write lock (up
        to the busy timeout) never freezes the screen. Not saved (database busy, disk full): the app's notice
        says why and the card stays up to retry."""
        # the card's evidence view keeps no key now (space scrolls it): the keys typed ahead are
        # the card's, for the card that follows
        self.query_one("#review-body").focus()
        self.ahead.write(command, done, failed=self._not_saved)

    def _not_saved(self, error: Exception) -> None:
        self.ahead.failed()  # (the keys pressed meanwhile were meant for what did not happen)

    def on_review_screen_answer_saved(self, message: AnswerSaved) -> None:
        """An answer was saved: note it, then the next card."""
        self.answered.append(message.card_id)
        result = message.result
        for warning in result.warnings:
            notify(self.app, warning, severity="warning")
        if result.became_leech:
            notify(self.app, "This card lapsed too often: suspended and tagged leech", severity="warning")
        self.next_card()
        self.ahead.shown()

    def catch_up(self) -> None:
        """A new review day was read here, which writes nothing: its unbury (the burials that
        ended) is done on the writer thread, waiting for another process's lock up to the busy
        timeout (still held after it: the next card tries again)."""
        runner.run(self, CatchUp(), DayCaughtUp)

    def on_review_screen_session_started(self, message: SessionStarted) -> None:
        if not self._started_in_time:  # (else the first card was read from it)
            self._queue_rebuilt()

    def on_review_screen_day_caught_up(self, message: DayCaughtUp) -> None:
        if message.result:
            self._queue_rebuilt()

    def _queue_rebuilt(self) -> None:
        """The day's queue was built again on the writer thread, with the cards it lifted: the
        card on screen stays (they come after it) and the counts follow; an empty screen ("session
        complete") reads its next card, even while a change is on its way (an undo that finds
        nothing to undo reads none)."""
        if self.item is None:
            self.next_card()
        elif not self.ahead.saving:
            self._update_progress()

    @in_turn
    def action_undo(self) -> None:
        """Take back the latest step done here (the one journal's Review scope): an answer, a
        suspend, a bury ..., or a card of yours made here (to the trash)."""
        self._write(Undo(Scope.REVIEW), StepUndone)

    def on_review_screen_step_undone(self, message: StepUndone) -> None:
        done = message.result
        if done is None:
            notify(self.app, "Nothing to undo")
        else:
            notify(self.app, done.notice(), severity="warning" if done.changed_since else "information")
        if isinstance(done, UndoResult) and not done.changed_since:  # the card is shown again
            if done.action == "rate" and self.answered:
                self.answered.pop()
            self.next_card()
        self.ahead.shown()

    @in_turn
    def action_suspend(self) -> None:
        if self.item is not None:
            self._write(
                SetAside(self.item.card.id, bury=False), partial(SetAsideDone, "Suspended (u to undo)")
            )

    @in_turn
    def action_bury(self) -> None:
        if self.item is not None:
            self._write(
                SetAside(self.item.card.id, bury=True),
                partial(SetAsideDone, "Buried until tomorrow (u to undo)"),
            )

    def on_review_screen_set_aside_done(self, message: SetAsideDone) -> None:
        """The card shown was suspended or buried: the next one."""
        if message.result:
            notify(self.app, message.said)
        self.next_card()
        self.ahead.shown()

    @in_turn
    def action_pin(self) -> None:
        if self.item is not None:
            pinned = not self.item.pinned
            self._write(Pin(self.item.unit_id, pinned), partial(Pinned, pinned))

    def on_review_screen_pinned(self, message: Pinned) -> None:
        """Pinned or unpinned: the card again, re-timed (its pin shown)."""
        if message.result:
            notify(self.app, "Pinned: reviewed at a higher retention" if message.pinned else "Unpinned")
        self.item = None
        with self.reporting("reloading the card"):
            self.item = self.services.review.next_card(lift=False)
        self._paint()
        self.ahead.shown()

    # --- selecting in the evidence (cards of yours) --------------------------------------------

    def action_select_evidence(self) -> None:
        """The evidence paragraphs in a paragraph view: move the word cursor, v selects, c / n
        make a card of yours; escape goes back to the card."""
        item = self.item
        shown = self._evidence(item) if item is not None and self.revealed else None
        if item is not None and shown:
            self.selecting.open(item.article_title, shown)

    def _close_selecting(self) -> bool:
        return self.selecting.close(evidence=self.revealed and self.item is not None)

    def action_back(self) -> None:
        if not self._close_selecting():
            super().action_back()

    def on_paragraph_view_make_card(self, event: ParagraphView.MakeCard) -> None:
        self.cards.make(self._card_article(), event)

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        self.cards.read_ahead(self._card_article(), event)

    def _card_article(self) -> int | None:
        return self.item.article_id if self.item is not None else None

    def on_own_cards_draft_written(self, message: OwnCards.DraftWritten) -> None:
        self.cards.open_form(message)

    def on_own_cards_card_saved(self, message: OwnCards.CardSaved) -> None:
        """A card of yours made of the evidence: back to the card, and a notice."""
        self.cards.saved(message)
        self._close_selecting()
        self.cards.say(message.what)

    def on_key(self, event: events.Key) -> None:
        # behind a reveal, a 3 is the revealed card's; behind a rating, a space is the next card's
        self.ahead.behind(event, review_keys.WAIT_FOR_SAVE, leads=("rate", "reveal"))

    def unit_edited(self, unit_id: int) -> None:
        """After the edit form (saved or not): the card as its unit now is, its answer still
        shown (the screen's resume read it before the edit was saved)."""
        if self.item is not None and self.item.unit_id == unit_id:
            self.next_card(keep_revealed=True)

    def action_open_source(self) -> None:
        if self.item is not None:
            self.open_article(self.item.article_id, unit_id=self.item.unit_id)

    def action_card_info(self) -> None:
        from tui.modals.card_info import CardInfoModal

        if self.item is not None:
            self.app.push_screen(CardInfoModal(self.services, (self.item.card.id,)))

    @in_turn
    def action_edit(self) -> None:
        unit = None
        if self.item is not None:
            with self.reporting("opening the unit"):
                unit = self.services.library.unit(self.item.unit_id)
        if unit is not None:
            self.edit_unit(unit, with_errors="Edit saved; it has validation issues")
