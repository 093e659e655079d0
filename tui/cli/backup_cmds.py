"""backup / restore: a consistent copy of the library (even while the app runs), and putting one back."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from tui.cli.common import data_dir_option, fail, one_line, out, services


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


@click.command("backup")
@click.argument("file", required=False, type=click.Path(path_type=Path))
@click.option("--list", "listing", is_flag=True, help="List the backups in the backup folder, newest first.")
@data_dir_option
def backup_cmd(file: Path | None, listing: bool, data_dir: Path | None) -> None:
    """Copy the library to FILE (or a folder; default: the backup folder). Safe while the app runs."""
    from core.domain.errors import MemoryRushError
    from core.host.priority import run_in_background
    from core.services.backup import backup_folder, backup_now, list_backups
    from core.services.bootstrap import library_config

    try:  # the file as it is, unopened: an older library beside its older app is copied, not upgraded
        config = library_config(data_dir)
        if listing:
            found = list_backups(config)
            out(f"{len(found)} backups in {one_line(str(backup_folder(config)))}")
            for b in found:
                when = datetime.fromtimestamp(b.at, UTC).strftime("%Y-%m-%d %H:%M UTC")
                out(f"  {when}  {b.kind:<15} {_mb(b.size):>10}  {one_line(b.path.name)}")
            return
        # at background CPU priority: the app's answers meanwhile do not wait for the copy
        made = run_in_background(lambda: backup_now(config, file), name="memoryrush-backup")
    except MemoryRushError as exc:
        fail(str(exc))
        return
    out(f"backed up to {one_line(str(made.path))} ({_mb(made.size)}, {made.seconds:.1f} s)")
    if made.crash_note:
        out(made.crash_note)


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask first.")
@data_dir_option
def restore_cmd(file: Path, yes: bool, data_dir: Path | None) -> None:
    """Replace the library with a backup FILE (checked first; the current library is kept as a backup)."""
    from core.services.backup import check, restore

    with services(data_dir) as svc:
        checked = check(file)
        if not yes and not click.confirm(
            f"Replace the library with {one_line(str(file))} ({checked})? The current one is kept as a backup",
            default=False,
            err=True,
        ):
            fail("not restored; nothing was changed", 1)
        done = restore(svc.config, file)
        out(
            f"restored {one_line(str(done.restored))}: {done.articles} articles, {done.cards} cards; "
            f"the library as it was is in {one_line(str(done.kept))}"
        )


COMMANDS: list[click.Command] = [backup_cmd, restore_cmd]
