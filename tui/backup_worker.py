"""Backups from the app: "Back up now" (Library, Settings, the palette) and the automatic backup
after the first frame (silent unless it fails), each in a named thread worker calling the headless
backup service.

Progress goes to the screen that asked, as `BackupProgressed` messages (tui/messages.py;
post_message is safe from a thread); the result as a notice. A failure is reported by the app's one error path.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from tui.messages import BackupProgressed
from tui.safe import notify

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from core.services.bootstrap import Services


def start_backup(app: App[object], services: Services, *, auto: bool = False) -> None:
    screen = app.screen
    app.run_worker(
        partial(_backup, app, services, screen, auto),
        thread=True,
        name="automatic backup" if auto else "backup",
        group="backup",
        exclusive=not auto,
        exit_on_error=False,
    )


def _backup(app: App[object], services: Services, screen: Screen[object], auto: bool) -> None:
    """The copy runs at background CPU priority (core/host/priority.py): answers made meanwhile
    do not wait for it on a busy machine."""
    from core.host.priority import run_in_background
    from core.services import backup

    config = services.config
    if auto:  # silent when it works (as Anki's are); a failure is a notice from the app
        run_in_background(partial(backup.auto_backup, config), name="memoryrush-backup")
        return
    app.call_from_thread(notify, app, "Backing up the library …", timeout=3)
    made = run_in_background(
        lambda: backup.backup_now(
            config, progress=lambda done, total: screen.post_message(BackupProgressed(done, total))
        ),
        name="memoryrush-backup",
    )
    screen.post_message(BackupProgressed(1, 1))
    said = f"Backed up to {made.path} ({made.size / 1e6:.1f} MB, {made.seconds:.1f} s)"
    if made.crash_note:
        said += f"; {made.crash_note}"
    app.call_from_thread(notify, app, said)
