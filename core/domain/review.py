"""What the review and stats services hand to the TUI and the CLI: frozen dataclasses.

The card itself and the State and Queue it is in are core.domain.card's (imported here too).

Times are UTC epoch seconds (int). Text fields (question, answer, unit content, article
title) are untrusted: render them with markup off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.domain.card import Card, CardSource
from core.domain.states import Queue, Rating, State

__all__ = [
    "AnswerResult",
    "DayPoint",
    "Fit",
    "MemoryStats",
    "OptimizeResult",
    "Queue",
    "Rating",
    "ReviewItem",
    "SessionSummary",
    "State",
    "UndoResult",
    "UnitStrength",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewItem(CardSource):
    """The card to show now: what it asks and where from (its CardSource, whose fields these
    are), the card itself, its recall probability now and what each answer would schedule."""

    card: Card
    retrievability: float  # probability of recall now (0 for a card never reviewed)
    intervals: dict[int, str] = field(default_factory=dict)  # Rating value -> "10m", "3d", ...


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """Today's session: what is left and what was done (a day starts at config.day_starts_at_hour)."""

    day_start: int
    day_end: int
    new_left: int  # new cards still in today's queue
    reviews_left: int  # review cards still in today's queue
    learning_due: int  # learning/relearning cards due now or within the learn-ahead 20 minutes
    learning_later: int  # learning cards due later today
    next_learning_at: int | None  # when the next learning card comes due (epoch)
    new_done: int
    reviews_done: int
    answers_today: int
    overdue_backlog: int  # review cards due before today that the daily cap leaves out

    @property
    def finished(self) -> bool:
        return self.new_left == 0 and self.reviews_left == 0 and self.learning_due == 0


@dataclass(frozen=True, slots=True)
class AnswerResult:
    card: Card  # the card after the answer
    review_log_id: int
    interval: str  # "10m", "4d", ...
    buried_siblings: int  # other questions of the unit buried for today
    became_leech: bool  # lapsed too often: suspended and tagged "leech"
    warnings: tuple[str, ...] = ()  # e.g. the clock went backwards


@dataclass(frozen=True, slots=True)
class UndoResult:
    action: str  # rate / suspend / unsuspend / bury / pin / unpin / postpone
    card_id: int | None
    # the card was changed after the action (Browse, Schedule, an edit): nothing was undone, the
    # action stays as it was (an undo never takes back a later change)
    changed_since: bool = False
    left: int = 0  # other cards of the action changed since, left as they are

    def notice(self) -> str:
        """What Review says of it."""
        if self.changed_since:
            return (
                f"Not undone: the card was changed after this {self.action} (in Browse, Schedule or "
                "an edit), so it stays as it is now"
            )
        if self.left:
            return f"Undone: {self.action} ({self.left} other card{'s' if self.left != 1 else ''} changed since left as they are)"
        return f"Undone: {self.action}"


@dataclass(frozen=True, slots=True)
class UnitStrength:
    unit_id: int
    content: str
    retrievability: float | None  # mean over its reviewed cards; None if none reviewed yet
    cards: int
    pinned: bool


@dataclass(frozen=True, slots=True)
class DayPoint:
    day: str  # ISO date of the review day (local)
    value: float


@dataclass(frozen=True, slots=True)
class MemoryStats:
    counts: dict[str, int]  # by queue name: new/learning/review/suspended/buried + leech
    average_retrievability: float | None  # over reviewed active cards
    forecast: tuple[DayPoint, ...]  # review cards due per day, next 30 days (day 0 includes overdue)
    reviews_per_day: tuple[DayPoint, ...]  # answers per day, last 30 days
    true_retention: float | None  # share of review-state answers not "again", last 30 days
    true_retention_reviews: int
    streak: int  # consecutive days with at least one answer, up to today
    total_reviews: int


@dataclass(frozen=True, slots=True)
class Fit:
    """FSRS parameters fitted to the review log (scheduler.optimizer.fit), old against new on
    the same items."""

    reviews: int
    items: int
    old_parameters: tuple[float, ...]
    new_parameters: tuple[float, ...]
    old_log_loss: float
    new_log_loss: float
    old_rmse: float
    new_rmse: float


@dataclass(frozen=True, slots=True, kw_only=True)
class OptimizeResult(Fit):
    """A fit and what was done with it."""

    saved: bool
    rescheduled: int = 0
