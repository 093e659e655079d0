"""What Triage's changes send back: each change (accept, reject, keep, retire, a fix: b, S, E,
!, undo) is a command run in a worker (tui/runner.py); its outcome comes back to the screen as
`Saved` (what to say, and the unit to show next) or `StepUndone`, handled by
`on_triage_screen_*` in tui/screens/triage.py (the namespace keeps the handler names they had
inside the screen's class). `saying` and `checked` build the `done` of a change from its
command's result. Apart from the screen so that triage.py is the queue and its keys, under 400
lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from core.domain import ValidationReport
from tui import runner

if TYPE_CHECKING:
    from core.domain.undo import Undone  # noqa: F401 (read by mypy in StepUndone's base)


@dataclass
class Saved(Message, namespace="triage_screen"):
    """A change made here was saved: `said` (nothing when empty), then the queue again, at the
    unit `prefer` when given. Handled by `on_triage_screen_saved`."""

    said: str
    prefer: int | None = None


class StepUndone(runner.Done["Undone | None"], namespace="triage_screen"):
    """The newest curation step (of this article) was taken back; None: nothing to undo.
    Handled by `on_triage_screen_step_undone`."""


def saying(said: str, prefer: int | None = None) -> Callable[[bool], Saved]:
    """The `done` of a change whose result says whether it did anything: `said` if it did."""
    return lambda did: Saved(said if did else "", prefer)


def checked(ok: str, errors: str, unit_id: int) -> Callable[[ValidationReport], Saved]:
    """The `done` of a fix: the unit again, with what its new check found."""
    return lambda report: Saved(ok if report.ok else errors, unit_id)
