"""Backups and restore: `memoryrush backup [FILE]`, automatic backups, `memoryrush restore FILE`.

    backup_now(config, target=None, progress=None) -> BackupResult   # a consistent copy, online
    auto_backup(config, now) -> BackupResult | None                  # daily / at start-up / off
    list_backups(config) -> list[BackupInfo]                         # newest first
    restore(config, file) -> RestoreResult                           # checked; current kept first

Backups are SQLite files named memoryrush-<kind>-<UTC time>.sqlite3 in the backup folder
(setting [backup] folder; default backups/ beside the library). Only automatic ones are pruned
(keeping [backup] keep); the ones you make, and those taken before a migration or a restore, stay.
A backup is written under a partial name and renamed when complete; every backup removes the
partial files of backups whose writer died (kill -9, power cut) from its folder, and says how many:
each has a new name, so nothing else would ever find them.

Restore refuses a damaged file, a file that is not a MemoryRush library and one written by a newer
MemoryRush, before touching anything; then the current library is backed up (kind
"before-restore"), and the file is copied into it in one transaction. If anything stops it half
way (a crash, kill -9, a full disk), the library is the one it was, and the copy is in the folder
anyway. An older file is migrated on the next open, as any library is (with its own backup).
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from core.domain.errors import StorageError
from core.domain.export import FileCheck
from core.host import paths
from core.host.config import Config
from core.services.export.files import atomic_path, remove_stale_partials
from core.storage import backup as backup_files
from core.storage.db import db
from core.storage.schema import open_database

Progress = Callable[[int, int], None]
_NAMES = "memoryrush-*.sqlite3"  # the files a backup writes (and migrations, core.storage.db)
_NAME = re.compile(r"^memoryrush-(?P<kind>[a-z0-9-]+?)-(?P<stamp>\d{8}-\d{6})(?:-\d+)?\.sqlite3$")
DAY = 86400


@dataclass(frozen=True, slots=True)
class BackupResult:
    path: Path
    size: int
    seconds: float
    pruned: tuple[Path, ...] = ()
    unfinished_removed: int = 0  # partial files of backups killed half way, removed

    @property
    def crash_note(self) -> str:
        """'removed 1 unfinished backup left by a crash', or '' when there was none."""
        n = self.unfinished_removed
        if not n:
            return ""
        return f"removed {n} unfinished backup{'s' if n != 1 else ''} left by a crash"


@dataclass(frozen=True, slots=True)
class BackupInfo:
    path: Path
    kind: str  # manual / auto / before-restore / (pre-migration backups have other names)
    at: int  # UTC epoch seconds (from the name)
    size: int


@dataclass(frozen=True, slots=True)
class RestoreResult:
    restored: Path
    kept: Path  # the library as it was before, as a backup
    schema_version: int
    articles: int
    cards: int


def backup_folder(config: Config) -> Path:
    return Path(config.backup_folder).expanduser() if config.backup_folder.strip() else paths.backups_dir()


def _stamp(now: float) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))


def _free_name(folder: Path, kind: str, now: float) -> Path:
    target = folder / f"memoryrush-{kind}-{_stamp(now)}.sqlite3"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"memoryrush-{kind}-{_stamp(now)}-{n}.sqlite3"
    return target


def backup_now(
    config: Config,
    target: Path | None = None,
    *,
    kind: str = "manual",
    now: float | None = None,
    progress: Progress | None = None,
) -> BackupResult:
    """Copy the library to `target` (a file, or a folder to put it in; default: the backup folder).
    Killed backups' partial files in the backup folder (and in `target`'s) are removed first."""
    started = time.monotonic()
    moment = time.time() if now is None else now
    named = target is None or target.is_dir()  # a new name of ours in a folder, never a file replaced
    if target is None or target.is_dir():
        folder = target or backup_folder(config)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the backup folder {folder}: {exc.strerror or exc}") from exc
        target = _free_name(folder, kind, moment)
    removed = _remove_unfinished({backup_folder(config), target.parent})
    source = paths.database_path()
    with atomic_path(target, in_backup_folder=named) as partial:  # never the library's own files
        backup_files.copy_database(source, partial, progress)
    return BackupResult(target, target.stat().st_size, time.monotonic() - started, unfinished_removed=removed)


def _remove_unfinished(folders: set[Path]) -> int:
    """Partial files of backups whose writer is gone, in each folder that exists."""
    return sum(
        remove_stale_partials(f, _NAMES) for f in {f.expanduser().resolve() for f in folders} if f.is_dir()
    )


def list_backups(config: Config) -> list[BackupInfo]:
    folder = backup_folder(config)
    found: list[BackupInfo] = []
    for path in folder.glob("memoryrush-*.sqlite3") if folder.is_dir() else ():
        match = _NAME.match(path.name)
        if match is None:
            continue
        at = int(datetime.strptime(match["stamp"], "%Y%m%d-%H%M%S").replace(tzinfo=UTC).timestamp())
        found.append(BackupInfo(path, match["kind"], at, path.stat().st_size))
    return sorted(found, key=lambda b: (b.at, b.path.name), reverse=True)


def auto_backup(config: Config, now: float | None = None) -> BackupResult | None:
    """The automatic backup the settings ask for at start-up (None when none is due)."""
    if config.backup_auto == "off":
        return None
    moment = time.time() if now is None else now
    autos = [b for b in list_backups(config) if b.kind == "auto"]
    if config.backup_auto == "daily" and autos and moment - autos[0].at < DAY:
        return None
    made = backup_now(config, kind="auto", now=moment)
    keep = max(1, config.backup_keep)
    pruned = []
    for old in [b for b in list_backups(config) if b.kind == "auto"][keep:]:
        old.path.unlink(missing_ok=True)
        pruned.append(old.path)
    return replace(made, pruned=tuple(pruned))


def check(file: Path) -> FileCheck:
    """Is `file` a library this MemoryRush can restore? StorageError says why not."""
    return backup_files.check_file(file.expanduser())


def restore(config: Config, file: Path) -> RestoreResult:
    """Replace the library with a checked backup file; the current library is kept first.

    The caller holds the instance lock (no other MemoryRush writes meanwhile)."""
    file = file.expanduser()
    live = paths.database_path()
    if file.resolve() == live.resolve():
        raise StorageError(f"{file} is the library itself; choose a backup file")
    checked = backup_files.check_file(file)
    with tempfile.TemporaryDirectory(prefix=".restore-", dir=live.parent) as scratch:
        vetted = _vetted_copy(file, Path(scratch), live)
        kept = backup_now(config, kind="before-restore")
        if not db.is_closed():
            db.close()
        try:
            backup_files.restore_into(vetted, live)
        finally:
            open_database(live, backups=paths.backups_dir())
    return RestoreResult(file, kept.path, checked.schema_version, checked.articles, checked.cards)


def _vetted_copy(file: Path, scratch: Path, live: Path) -> Path:
    """A copy of `file` brought to this schema version (an older one migrated, in the copy) and
    holding no schema object a library of this MemoryRush lacks, or StorageError naming them: a
    trigger planted in a backup would otherwise fire on the reader's next action. The library is
    open again when this returns or raises."""
    copy, reference = scratch / "candidate.sqlite3", scratch / "reference.sqlite3"
    backup_files.copy_database(file, copy)
    if not db.is_closed():
        db.close()
    try:
        open_database(reference, backups=scratch)  # a new library: what this version makes
        db.close()
        open_database(copy, backups=scratch)  # an older file is migrated here, in the copy
        db.close()
        backup_files.ready_to_restore(copy, live)
        foreign = backup_files.foreign_objects(copy, reference)
    finally:
        open_database(live, backups=paths.backups_dir())
    if foreign:
        shown = ", ".join(foreign[:6]) + (f" and {len(foreign) - 6} more" if len(foreign) > 6 else "")
        raise StorageError(
            f"{file} holds schema objects this MemoryRush does not make ({shown}): it could act on your "
            "library behind your back, so it was not restored; nothing was changed"
        )
    return copy
