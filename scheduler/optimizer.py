"""Fit FSRS parameters to a review log with fsrs-rs-python (Rust), pure: logs in, numbers out.

A card's log becomes one FSRSItem per review after the first (each item is the card's
history up to that review; delta_t in whole review days). An item whose last review is on the
same day as the one before predicts nothing about forgetting and is left out (fsrs-rs refuses
such items).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime

import fsrs_rs_python as rs

from core.domain.review import Fit
from scheduler.policy import NEW, CardState, Policy, review

MIN_REVIEWS = 400  # below this the fit is noise; `optimize` refuses with a clear message


class NotEnoughReviews(ValueError):
    """Too few reviews to fit parameters: how many there are, in how many usable histories, and
    how many are needed (the service says it in words)."""

    def __init__(self, reviews: int, histories: int, needed: int) -> None:
        super().__init__(f"reviews={reviews} histories={histories} needed={needed}")
        self.reviews, self.histories, self.needed = reviews, histories, needed


class FitFailed(ValueError):
    """fsrs-rs rejected the data."""


def build_items(
    logs: Iterable[tuple[int, int, int]], day_of: Callable[[int], int]
) -> tuple[list[rs.FSRSItem], int]:
    """(items, review count) from (card id, rating, reviewed_at epoch) sorted by card then time."""
    items: list[rs.FSRSItem] = []
    count = 0
    card: int | None = None
    history: list[rs.FSRSReview] = []
    last_day = 0
    for card_id, rating, at in logs:
        count += 1
        day = day_of(at)
        if card_id != card:
            card, history, last_day = card_id, [], day
        delta = max(0, day - last_day) if history else 0
        history.append(rs.FSRSReview(int(rating), delta))
        last_day = day
        if len(history) > 1 and delta > 0:  # the predicted review must be on a later day
            items.append(rs.FSRSItem(list(history)))
    return items, count


def fit(
    items: Sequence[rs.FSRSItem], reviews: int, old: Sequence[float], *, min_reviews: int = MIN_REVIEWS
) -> Fit:
    """Fit new parameters and compare log loss / RMSE with the old ones on the same items."""
    if reviews < min_reviews or not items:
        raise NotEnoughReviews(reviews, len(items), min_reviews)
    try:
        old_eval = rs.FSRS(list(old)).evaluate(items)
        new = tuple(float(x) for x in rs.FSRS(list(old)).compute_parameters(items))
        new_eval = rs.FSRS(list(new)).evaluate(items)
    except BaseException as exc:  # fsrs-rs reports bad input as ValueError or a Rust panic
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        raise FitFailed(f"fsrs-rs could not fit these reviews ({type(exc).__name__}: {exc})") from None
    return Fit(
        reviews=reviews,
        items=len(items),
        old_parameters=tuple(old),
        new_parameters=new,
        old_log_loss=float(old_eval.log_loss),
        new_log_loss=float(new_eval.log_loss),
        old_rmse=float(old_eval.rmse_bins),
        new_rmse=float(new_eval.rmse_bins),
    )


def replay(card_id: int, history: Sequence[tuple[int, datetime]], policy: Policy) -> CardState:
    """A card's state as if it had always been scheduled by `policy` (no fuzz): its ratings
    (rating, reviewed_at UTC) applied in order from new."""
    state = CardState(card_id=card_id, state=NEW)
    plain = replace(policy, fuzz=False)
    for rating, when in history:
        state, _ = review(state, rating, when, plain)
    return state
