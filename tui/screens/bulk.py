"""The journalled writes of Browse, Trash and Schedule: each in a named worker, one at a time,
and `u`, which takes back the latest of them (the three screens share the one journal).

Apart from the screens that use them, so none of the three imports another for its worker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from core.domain.browse import BulkUndo
from tui.safe import notify
from tui.screens.base import BaseScreen

# One journalled write at a time from the app's workers (Browse, Trash and Schedule): a second
# key waits for the first's transaction instead of racing it for the latest journal entry.
BULK_WRITE = threading.Lock()
T = TypeVar("T")


def in_bulk_worker(screen: BaseScreen, what: str, write: Callable[[], T], then: Callable[[T], None]) -> None:
    """Run a journalled write (up to every card of the library: a minute on a million) in a
    thread worker named `what`, one at a time; `then` gets its result on the UI thread. The
    worker is the app's, so leaving the screen meanwhile neither cancels it nor loses its
    result: `then` runs while the screen is still shown, else the app says it is done. A
    failure is reported under `what` (the app's worker report)."""

    def deliver(result: T) -> None:
        if screen.is_attached:
            then(result)
        else:
            notify(screen.app, f"Done: {what}")

    def run() -> None:
        with BULK_WRITE:
            result = write()
        screen.app.call_from_thread(deliver, result)

    screen.app.run_worker(run, thread=True, name=what, group="bulk-write", exit_on_error=False)


def undo_bulk(screen: BaseScreen, then: Callable[[], None]) -> None:
    """Take back the latest Browse journal action (Browse, Trash and Schedule share the one
    journal) in a worker and say what; `then` runs on the UI thread when something was undone."""

    def undone(entry: BulkUndo | None) -> None:
        if entry is None:
            notify(screen.app, "Nothing to undo", severity="warning")
            return
        since = entry.changed_since()
        notify(screen.app, f"Undone: {entry.action.replace('_', ' ')}" + (f" · {since}" if since else ""))
        then()

    in_bulk_worker(screen, "undoing", screen.services.browse.undo, undone)
