"""Review: question → reveal (space) → answer + evidence with the quote highlighted → rate 1–4.

The rating keys are only active after the reveal (check_action + refresh_bindings). Undo, edit,
suspend, bury, pin and open-the-source work on the current card; a summary ends the session.
"""

from __future__ import annotations

import time

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from core.domain import SourceParagraph, StoredUnit
from core.domain.review import ReviewItem
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
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
NEEDS_CARD = {"reveal", "edit", "suspend", "bury", "pin", "open_source"}


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
        Binding("p", "pin", "Pin", id="review.pin"),
        Binding("o", "open_source", "Open source", id="review.open"),
        Binding("i", "card_info", "Card info", id="review.info"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.item: ReviewItem | None = None
        self.revealed = False
        self.shown_at = 0.0
        self.answered: list[int] = []  # the card of each answer given here (undo takes the last)
        self._progress_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="review-progress")
        with VerticalScroll(id="review-body"):
            with Vertical(id="review-card"):
                yield Static(id="review-meta")
                yield Static(id="review-question")
            yield Static(id="review-answer")
            yield Static(id="review-evidence")
        yield Static(id="review-ratings")
        yield KeyBar()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height >= TALL, "-tall")
        self.set_class(event.size.height < SHORT, "-short")

    def on_mount(self) -> None:
        self.attempt("starting today's session", self.services.review.start_session)
        self.next_card()

    def refresh_data(self) -> None:
        """Back from Help, the palette, search or an edit: the card may have been edited or
        trashed meanwhile; the same card keeps its revealed answer (it was hidden again)."""
        if self.item is not None:
            self.next_card(keep_revealed=True)

    # --- showing ------------------------------------------------------------------------------

    def next_card(self, *, keep_revealed: bool = False) -> None:
        shown = self.item.card.id if self.item is not None else None
        self.item = self.attempt("loading the next card", self.services.review.next_card)
        same = keep_revealed and self.item is not None and self.item.card.id == shown
        if not same:  # (the same card keeps its answer shown and its answer time running)
            self.revealed = False
            self.shown_at = time.monotonic()
        self._paint()
        # check_action gates the keys at once; the footer (a recompose) follows after the card
        # has been painted, so rating -> next card is not held up by it.
        self.call_after_refresh(self.refresh_bindings)

    def _update_progress(self) -> None:
        summary = self.attempt("reading the session", self.services.review.summary)
        if summary is not None:
            self.query_one("#review-progress", Static).update(progress_line(summary))
            if self.item is None:
                self.query_one("#review-question", Static).update(finished(summary, self.answered))

    def _paint(self) -> None:
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
        unit = self.services.library.unit(item.unit_id)
        evidence.display = unit is not None
        if unit is not None:
            evidence.update(evidence_view(item.article_title, self._evidence(unit)))

    def _evidence(self, unit: StoredUnit) -> list[tuple[SourceParagraph, list[str]]]:
        """The unit's evidence paragraphs with the quotes in each, in the order cited."""
        by_paragraph: dict[str, list[str]] = {}
        for e in unit.evidence:
            by_paragraph.setdefault(e.paragraph_id, []).append(e.quote)
        found = [
            (self.services.library.paragraph(unit.article_id, pid), quotes)
            for pid, quotes in by_paragraph.items()
        ]
        return [(para, quotes) for para, quotes in found if para is not None]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("rate", "card_info"):  # card info after the answer: memory figures spoil no recall
            return True if self.item is not None and self.revealed else None
        if action == "reveal":
            return True if self.item is not None and not self.revealed else None
        if action in NEEDS_CARD:
            return True if self.item is not None else None
        return True

    def why_not(self, action: str) -> str | None:
        if self.item is None:
            return "The session is complete: nothing to review now (escape: back to Home)"
        if action == "rate":
            return "Show the answer first (space), then rate it 1-4"
        if action == "card_info":
            return "Card info comes after the answer (space)"
        if action == "reveal":
            return "The answer is shown: rate it 1 Again, 2 Hard, 3 Good or 4 Easy"
        return None

    # --- actions --------------------------------------------------------------------------------

    def action_reveal(self) -> None:
        self.revealed = True
        self._paint()
        self.call_after_refresh(self.refresh_bindings)

    def action_rate(self, rating: int) -> None:
        if self.item is None or not self.revealed:
            return
        ms = int((time.monotonic() - self.shown_at) * 1000)
        result = self.attempt(
            "saving the answer", self.services.review.answer, self.item.card.id, rating, duration_ms=ms
        )
        if result is None:  # not saved (database busy, disk full): the card stays up to retry
            return
        self.answered.append(self.item.card.id)
        for warning in result.warnings:
            notify(self.app, warning, severity="warning")
        if result.became_leech:
            notify(self.app, "This card lapsed too often: suspended and tagged leech", severity="warning")
        self.next_card()

    def action_undo(self) -> None:
        done = self.attempt("undoing", self.services.review.undo)
        if done is None:
            notify(self.app, "Nothing to undo")
            return
        if done.action == "rate" and self.answered:
            self.answered.pop()
        notify(self.app, f"Undone: {done.action}")
        self.next_card()

    def action_suspend(self) -> None:
        if self.item and self.attempt("suspending", self.services.review.suspend, self.item.card.id):
            notify(self.app, "Suspended (u to undo)")
        self.next_card()

    def action_bury(self) -> None:
        if self.item and self.attempt("burying", self.services.review.bury, self.item.card.id):
            notify(self.app, "Buried until tomorrow (u to undo)")
        self.next_card()

    def action_pin(self) -> None:
        if self.item is None:
            return
        pinned = not self.item.pinned
        if self.attempt("pinning", self.services.review.pin_unit, self.item.unit_id, pinned):
            notify(self.app, "Pinned: reviewed at a higher retention" if pinned else "Unpinned")
        self.item = self.attempt("reloading the card", self.services.review.next_card)
        self._paint()

    def action_open_source(self) -> None:
        if self.item is not None:
            self.mr_app.open_article(self.item.article_id, unit_id=self.item.unit_id)

    def action_card_info(self) -> None:
        from tui.modals.card_info import CardInfoModal

        if self.item is not None:
            self.app.push_screen(CardInfoModal((self.item.card.id,)))

    def action_edit(self) -> None:
        item = self.item
        unit = self.services.library.unit(item.unit_id) if item else None
        if unit is None:
            return

        def done(edit: UnitEdit | None) -> None:
            if edit is not None:
                report = self.attempt(
                    "saving the edit",
                    self.services.curation.edit,
                    unit.id,
                    content=edit.content,
                    memory_type=edit.memory_type,
                    tags=edit.tags,
                    questions=edit.questions,
                )
                if report is not None:
                    notify(self.app, "Edit saved" if report.ok else "Edit saved; it has validation issues")

        def check(edit: UnitEdit):  # type: ignore[no-untyped-def]
            return self.services.curation.validate_edit(
                unit,
                content=edit.content,
                memory_type=edit.memory_type,
                tags=edit.tags,
                questions=edit.questions,
            )

        self.app.push_screen(EditUnitModal(unit, check), done)
