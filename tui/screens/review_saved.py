"""What Review's changes send back: each change (the session's start, an answer, undo, suspend,
bury, pin, a new day's catch-up) is a command run in a worker (tui/runner.py), and its outcome comes back to the
screen as one of these past-tense messages, handled by `on_review_screen_*` in
tui/screens/review.py (the namespace keeps the handler names they had inside the screen's
class). Apart from the screen so that review.py is the card and its keys, under 400 lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from core.domain.review import AnswerResult, SessionSummary
from tui import runner

if TYPE_CHECKING:
    from core.domain.undo import Undone  # noqa: F401 (read by mypy in StepUndone's base)


@dataclass
class AnswerSaved(Message, namespace="review_screen"):
    """The worker saved the answer. Handled by `on_review_screen_answer_saved`."""

    card_id: int
    result: AnswerResult


class StepUndone(runner.Done["Undone | None"], namespace="review_screen"):
    """The newest step of Review's scope was taken back (None: nothing to undo). Handled by
    `on_review_screen_step_undone`."""


@dataclass
class SetAsideDone(Message, namespace="review_screen"):
    """The card was suspended or buried (`result`: it was there). Handled by
    `on_review_screen_set_aside_done`."""

    said: str
    result: bool


@dataclass
class Pinned(Message, namespace="review_screen"):
    """The unit was pinned or unpinned. Handled by `on_review_screen_pinned`."""

    pinned: bool
    result: bool


class SessionStarted(runner.Done[SessionSummary], namespace="review_screen"):
    """Today's session was started on the writer thread (the burials that ended lifted, the
    queue built). Handled by `on_review_screen_session_started`."""


class DayCaughtUp(runner.Done[bool], namespace="review_screen"):
    """The writer thread lifted a new day's burials that a read left to do (`result`: done here;
    False: nothing was left, or another process's lock is still held and the next card tries
    again). Handled by `on_review_screen_day_caught_up`."""
