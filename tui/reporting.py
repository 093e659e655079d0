"""The app's one error path: a MemoryRushError becomes a notice that says what was being done
and what happened ("saving the answer: the database is busy ..."); the app keeps running.

Screens wrap every service call in `with self.reporting("saving the answer"):`; thread
workers' errors arrive at MemoryRushApp.on_worker_state_changed, which reports them the same
way under the worker's name. Anything else (a bug) is not caught here.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from textual.app import App

from core.domain.errors import MemoryRushError
from tui.safe import notify


def report(app: App[Any], what: str, error: BaseException) -> None:
    """Show an error as a notice (its text may hold untrusted parts: through the gate)."""
    notify(app, f"{what}: {error}", severity="error", timeout=8)


class Reporting:
    """A block whose MemoryRushError is reported and swallowed; `failed` tells the code after it."""

    def __init__(self, app: App[Any], what: str) -> None:
        self.app = app
        self.what = what
        self.failed = False

    def __enter__(self) -> Reporting:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> bool:
        if isinstance(error, MemoryRushError):
            self.failed = True
            report(self.app, self.what, error)
            return True
        return False
