"""Backups from the app: "Back up now" (Library, Settings, the palette) and the automatic backup
after the first frame (silent unless it fails), each in a named worker of the app's (tui/runner.py:
leaving the screen does not stop it) calling the headless backup service.

Progress goes to the screen that asked, as `BackupProgressed` messages (tui/messages.py;
post_message is safe from a thread); the result as a notice (`BackedUp`, handled by the app). A
failure is reported by the app's one error path.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from tui import runner
from tui.messages import BackupProgressed
from tui.safe import notify

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from core.host.config import Config
    from core.services.backup import BackupResult
    from core.services.bootstrap import Services


class BackedUp(runner.Done["BackupResult"]):
    """Back up now made a copy. Handled by `MemoryRushApp.on_backed_up` (a notice saying where)."""

    def said(self) -> str:
        made = self.result
        said = f"Backed up to {made.path} ({made.size / 1e6:.1f} MB, {made.seconds:.1f} s)"
        return f"{said}; {made.crash_note}" if made.crash_note else said


def start_backup(app: App[object], services: Services, *, auto: bool = False) -> None:
    config = services.config
    if auto:  # silent when it works (as Anki's are); a failure is a notice from the app
        runner.start(app, "automatic backup", partial(_auto_backup, config), group="backup")
        return
    notify(app, "Backing up the library …", timeout=3)
    job = partial(_backup_now, config, app.screen)
    runner.start(app, "backup", job, BackedUp, group="backup", exclusive=True)


def _auto_backup(config: Config) -> None:
    """The copy runs at background CPU priority (core/host/priority.py): answers made meanwhile
    do not wait for it on a busy machine."""
    from core.host.priority import run_in_background
    from core.services import backup  # (in the worker: not on the UI thread)

    run_in_background(partial(backup.auto_backup, config), name="memoryrush-backup")


def _backup_now(config: Config, screen: Screen[object]) -> BackupResult:
    from core.host.priority import run_in_background
    from core.services import backup

    made = run_in_background(
        lambda: backup.backup_now(
            config, progress=lambda done, total: screen.post_message(BackupProgressed(done, total))
        ),
        name="memoryrush-backup",
    )
    screen.post_message(BackupProgressed(1, 1))
    return made
