"""The FSRS parameters in use: fsrs' defaults until `optimize` fits and saves the reader's own."""

from __future__ import annotations

import scheduler
from core.storage.review import cards
from scheduler.policy import decay_factor

PARAMETERS_KEY = "fsrs_parameters"


def fsrs_parameters() -> tuple[float, ...]:
    """The fitted parameters when stored, else fsrs' defaults."""
    stored = cards.get_setting(PARAMETERS_KEY)
    return tuple(stored) if stored else scheduler.DEFAULT_PARAMETERS


def save_parameters(parameters: tuple[float, ...] | None) -> None:
    """Store fitted parameters (None: back to the defaults)."""
    cards.put_setting(PARAMETERS_KEY, list(parameters) if parameters else None)


def forgetting_curve() -> tuple[float, float]:
    """(DECAY, FACTOR) of the curve R = (1 + FACTOR * t / S) ** DECAY for the parameters in use."""
    return decay_factor(fsrs_parameters())
