"""A card's grades, states and queues: the enums the card table stores (core.domain.review
exports them with the review types).

A module of their own: the card table's definition (core.storage.review.models), which opening
the library loads, needs them and none of the review dataclasses (~48M instructions of the
cold start to the first frame, bench/tui_cold.py).
"""

from __future__ import annotations

from enum import IntEnum


class Rating(IntEnum):
    """How well a card was recalled: the four FSRS grades."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


class State(IntEnum):
    """A card's memory state: NEW (never answered), then fsrs.State's values."""

    NEW = 0
    LEARNING = 1
    REVIEW = 2
    RELEARNING = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Queue(IntEnum):
    """Where a card waits: the card table's `queue` column, derived from its state and flags by
    the one rule in core.storage.review.models (`queue_for`, and `queue_sql` for SQL)."""

    NEW = 0
    LEARNING = 1  # learning and relearning: due within the day
    REVIEW = 2
    SUSPENDED = -1
    BURIED = -2  # until the next review day
    INACTIVE = -3  # the unit is not confirmed (proposed, rejected, trashed)

    @property
    def label(self) -> str:
        return self.name.lower()
