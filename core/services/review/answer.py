"""One answer, worked out before anything is written: the card as it will be, its log, a leech.

Pure: the service reads the card and the day loads, calls `decide`, and saves the decision in
the same IMMEDIATE transaction (ReviewService.answer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import scheduler
from core.domain.card import Card
from core.domain.review import Rating
from core.services.review.convert import as_epoch
from core.storage.review.cards import LogRow


@dataclass(frozen=True, slots=True)
class Decision:
    """What an answer does to a card."""

    card: Card  # the card after the answer
    log: LogRow
    became_leech: bool  # lapsed too often: suspended and tagged
    reviewed_at: datetime  # when the answer counts (the last review's time if the clock is behind)
    clock_skew_s: int  # how far the clock was behind the card's last review (0: fine)


def decide(
    card: Card,
    planned: scheduler.Planned,
    *,
    load: Sequence[float] | None,
    rng: random.Random,
    now: datetime,
    duration_ms: int | None,
    leech_threshold: int,
) -> Decision:
    """The decision for a planned answer; `load` counts the cards due on its fuzz days."""
    state, record = scheduler.settle(planned, rng=rng, load=load)
    new = state.onto(card)
    leech = (
        planned.grade == Rating.AGAIN
        and card.state == scheduler.REVIEW
        and scheduler.is_leech(state.lapses, leech_threshold)
    )
    if leech:
        new = replace(new, suspended=True, leech=True)
    log = LogRow(
        rating=record.rating,
        reviewed_at=as_epoch(record.reviewed_at),
        wall_at=as_epoch(now),
        state_before=record.state_before,
        elapsed_days=record.elapsed_days,
        scheduled_days=record.scheduled_days,
        duration_ms=duration_ms,
        clock_skew_s=record.clock_skew_s,
    )
    return Decision(new, log, leech, record.reviewed_at, record.clock_skew_s)
