"""The app's one error path: a MemoryRushError becomes a notice that says what was being done
and what happened ("saving the answer: the database is busy ..."); the app keeps running.

Screens wrap every service call in `with self.reporting("saving the answer"):`. A thread
worker's error (any: the worker caught it) is reported under the worker's name by the runner's
one handler (tui/runner.py `report_failure`, called by the app), with `report` below.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from textual.app import App

from core.domain.errors import MemoryRushError
from tui.safe import notify


def report(app: App[Any], what: str, error: BaseException) -> None:
    """Show an error as a notice (its text may hold untrusted parts: through the gate). An
    error without words (a bug's bare KeyError()) is named by its kind."""
    notify(app, f"{what}: {str(error) or type(error).__name__}", severity="error", timeout=8)


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
