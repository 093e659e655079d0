"""`memoryrush optimize`: fit FSRS parameters to this library's review log (fsrs-rs-python).

    result = optimize(svc.review, reschedule=False)   # raises NotEnoughReviews below the minimum

New parameters are saved only when they fit the log better (lower log loss) than the current
ones. With `reschedule`, every reviewed card's memory state and due date are recomputed from
its own log under the new parameters (one transaction).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Protocol

import scheduler
from core.domain.card import Card
from core.domain.errors import MemoryRushError
from core.domain.review import OptimizeResult
from core.storage.db import write_transaction
from core.storage.review import cards, writes
from core.text.words import plural
from scheduler import optimizer


class Tuned(Protocol):
    """What optimizing reads and sets of the review service (ReviewService is one): its day,
    clock, parameters and policy. A protocol, so this module needs no import of the service
    (which imports it: the two made a circle)."""

    def day(self, now: datetime | None = None) -> scheduler.DayWindow: ...
    def now(self) -> datetime: ...
    def parameters(self) -> tuple[float, ...]: ...
    def set_parameters(self, parameters: tuple[float, ...] | None) -> None: ...
    def policy(self, pinned: bool = False) -> scheduler.Policy: ...


class NotEnoughReviews(MemoryRushError):
    """Too few reviews to fit parameters; the message says how many are needed."""


def optimize(
    review: Tuned, *, reschedule: bool = False, min_reviews: int = optimizer.MIN_REVIEWS
) -> OptimizeResult:
    day = review.day()
    day_start = int(day.start.timestamp())

    def day_of(at: int) -> int:
        return (at - day_start) // 86400

    items, count = optimizer.build_items(cards.review_logs(), day_of)
    try:
        fit = optimizer.fit(items, count, review.parameters(), min_reviews=min_reviews)
    except optimizer.NotEnoughReviews as exc:
        raise NotEnoughReviews(
            f"only {plural(exc.reviews, 'review')} with "
            f"{plural(exc.histories, 'usable history', 'usable histories')}; optimizing needs at "
            f"least {plural(exc.needed, 'review')} (keep reviewing, then run `memoryrush optimize` again)"
        ) from None
    except optimizer.FitFailed as exc:
        raise MemoryRushError(f"{exc}; your parameters were not changed") from None
    better = fit.new_log_loss < fit.old_log_loss
    if better:
        review.set_parameters(fit.new_parameters)
    rescheduled = _reschedule(review) if reschedule and better else 0
    # OptimizeResult is the scheduler's Fit (core.domain.review) plus what was done.
    return OptimizeResult(**asdict(fit), saved=better, rescheduled=rescheduled)


def _reschedule(review: Tuned) -> int:
    """Recompute every reviewed card from its own log under the new parameters: one transaction."""
    now = int(review.now().timestamp())
    changed: list[Card] = []
    with write_transaction():
        for card_id, history in cards.review_histories().items():
            row = cards.get_card(card_id)
            if row is None:
                continue
            entries = [(rating, datetime.fromtimestamp(at, UTC)) for rating, at in history]
            state = optimizer.replay(row.id, entries, review.policy(cards.unit_pinned(row.unit_id)))
            new = state.onto(row)
            if new != row:
                changed.append(new)
        return writes.rewrite_cards(changed, now)
