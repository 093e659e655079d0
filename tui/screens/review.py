"""Review: question → reveal (space) → answer + evidence with the quote highlighted → rate 1–4.

The rating keys are only active after the reveal (check_action + refresh_bindings). Undo, edit,
suspend, bury, pin and open-the-source work on the current card; a summary ends the session.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from core.domain import StoredUnit
from core.domain.review import ReviewItem, SessionSummary
from core.text.words import plural
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.safe import content, highlight_quotes, notify
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

RATINGS = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
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
        with VerticalScroll(id="review-body"):
            yield Static(id="review-progress")
            yield Static(id="review-question")
            yield Static(id="review-answer")
            yield Static(id="review-evidence")
        yield KeyBar()

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
        question = self.query_one("#review-question", Static)
        answer = self.query_one("#review-answer", Static)
        evidence = self.query_one("#review-evidence", Static)
        if self.item is None:
            question.update(finished(None, self.answered))
            answer.update(Content(""))
            evidence.display = False
            return
        item = self.item
        pin = " · pinned" if item.pinned else ""
        question.update(
            Content.assemble(
                (f"{item.card.state} · {item.memory_type}{pin}\n", "$text-muted"),
                content(item.question, style="bold"),
                "\n",
                ("from ", "$text-muted"),
                content(item.article_title, single_line=True, style="italic"),
            )
        )
        if not self.revealed:
            answer.update(Content.styled("space: show the answer", "$text-muted"))
            evidence.display = False
            return
        choices = "   ".join(f"{k} {RATINGS[k]} {item.intervals.get(k, '')}" for k in RATINGS)
        answer.update(
            Content.assemble(
                ("Answer  ", "bold $success"), content(item.answer), "\n\n", (choices, "$accent")
            )
        )
        unit = self.services.library.unit(item.unit_id)
        evidence.update(evidence_view(self, unit) if unit else Content(""))
        evidence.display = unit is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rate":
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


def progress_line(s: SessionSummary) -> Content:
    return Content.assemble(
        ("Today  ", "bold"),
        f"new {s.new_left} · reviews {s.reviews_left} · learning {s.learning_due} left",
        ("   done ", "bold"),
        f"{s.new_done} new, {plural(s.reviews_done, 'review')} ({plural(s.answers_today, 'answer')})",
    )


def finished(s: SessionSummary | None, answered: list[int]) -> Content:
    """The end of the session: what was answered here (answers and the cards they were on:
    a card failed twice is two answers on one card), today's totals, what comes back later."""
    here = plural(len(answered), "answer")
    if answered:
        here += f" on {plural(len(set(answered)), 'card')}"
    lines = [
        Content.styled("Session complete", "bold $success"),
        Content(f"This session: {here}."),
    ]
    if s is not None:
        lines.append(
            Content(
                f"Today: {plural(s.new_done, 'new card')}, {plural(s.reviews_done, 'review')}, "
                f"{plural(s.answers_today, 'answer')}."
            )
        )
        if s.next_learning_at and s.learning_later:
            when = datetime.fromtimestamp(s.next_learning_at, UTC).strftime("%H:%M UTC")
            lines.append(
                Content(f"Later today: {plural(s.learning_later, 'learning card')} (the next at {when}).")
            )
        if s.overdue_backlog:
            lines.append(Content(f"Beyond today's limit: {plural(s.overdue_backlog, 'overdue review')}."))
    lines.append(Content.styled("escape: back to Home", "$text-muted"))
    return Content("\n").join(lines)


def evidence_view(screen: BaseScreen, unit: StoredUnit) -> Content:
    """The unit's evidence paragraphs with the quoted spans highlighted."""
    parts: list[Content] = [Content.styled("Evidence", "bold $primary")]
    by_paragraph: dict[str, list[str]] = {}
    for e in unit.evidence:
        by_paragraph.setdefault(e.paragraph_id, []).append(e.quote)
    for pid, quotes in by_paragraph.items():
        para = screen.services.library.paragraph(unit.article_id, pid)
        if para is not None:
            parts.append(
                Content.assemble((f"{pid}  ", "bold $text-muted"), highlight_quotes(para.text, quotes))
            )
    return Content("\n").join(parts)
