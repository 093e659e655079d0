"""The journalled writes of Browse, Trash and Schedule: each a command (core/services/commands/
bulk.py: one at a time, the journal's lock) run in the app's worker, and `u`, which takes back
the latest of them (the three screens share the one journal).

Apart from the screens that use them, so none of the three imports another for its worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.app import App
from textual.message import Message

from core.domain.browse import BulkUndo
from core.services.commands import Command
from core.services.commands.bulk import UndoBulk
from tui import runner
from tui.safe import notify
from tui.screens.base import BaseScreen

T = TypeVar("T")


class BulkUndone(runner.Done[BulkUndo | None]):
    """`u` took back the latest journal action (None: there was none). Handled by `on_bulk_undone`
    of Browse, Trash and Schedule (`say_undone`, then the rows or the forecast again)."""


def in_bulk_worker(
    screen: BaseScreen,
    command: Command[T],
    done: Callable[[T], Message],
    failed: Callable[[Exception], None] | None = None,
) -> None:
    """Run a journalled write (up to every card of the library: a minute on a million) in a
    thread worker named by the command; `done(result)` is posted to `screen`. The worker is the
    app's, so leaving the screen meanwhile neither cancels it nor loses its result: the screen
    gets it while it is mounted, else the app says it is done. A failure is reported under the
    command's `what` (the app's worker report), then `failed(error)`."""
    runner.run(screen, command, done, group="bulk-write", failed=failed, outlive=True)


def undo_bulk(screen: BaseScreen) -> None:
    """Take back the latest bulk action (Browse, Trash and Schedule share the one journal's
    bulk scope) in a worker; `BulkUndone` says what to the screen."""
    in_bulk_worker(screen, UndoBulk(), BulkUndone)


def say_undone(app: App[object], entry: BulkUndo | None) -> bool:
    """Say what `u` took back; True when something was undone (the screen then reads again)."""
    if entry is None:
        notify(app, "Nothing to undo", severity="warning")
        return False
    notify(app, entry.notice())
    return True
