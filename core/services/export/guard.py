"""The library's own files are never the target of a file we write for the reader.

    refuse_library_target(Path("out.json"))   # raises ExportError when it would harm the library

Every writer of a path a reader names (the exports, `backup FILE`, `process --out`, the app's
Export dialog) goes through `core.services.export.files.atomic_path`, which asks here first. A
rename over the library file replaces the live database (the next open says it is damaged, and
an open app keeps writing to the unlinked file); a file named like its `-wal`, `-shm` or
`-journal` is read by SQLite as the library's own journal at the next open; the lock file keeps
a second instance out; the config file holds the reader's settings; and the backup folders hold
the only copies a restore can use. So each of those is refused by name (a file that is not
there yet is harmful too: a fake `-wal`), and by identity (`os.path.samefile`: a hard link, a
symbolic link or another spelling of the same file on a case-insensitive disk).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from core.domain.errors import MemoryRushError
from core.host import paths
from core.host.config import load_config
from core.storage.db import db

# SQLite's files beside a database: the write-ahead log, its index, the rollback journal
SIDECARS = ("", "-wal", "-shm", "-journal")


class ExportError(MemoryRushError):
    """An export could not be written (folder missing, not writable, disk full, the library's own file)."""


def _databases() -> Iterator[Path]:
    yield paths.database_path()
    open_path = db.database
    if isinstance(open_path, str) and open_path not in ("", ":memory:"):
        yield Path(open_path)


def library_files() -> list[tuple[Path, str]]:
    """(file, what it is) for every file of the library a written file must not replace."""
    found: list[tuple[Path, str]] = []
    for database in _databases():
        for sidecar in SIDECARS:
            what = "library" if not sidecar else f"library's {sidecar[1:]} file"
            found.append((database.with_name(database.name + sidecar), what))
    found.append((paths.lock_path(), "lock file"))
    found.append((paths.config_path(), "settings file"))
    return found


def backup_folders() -> list[Path]:
    """The default backup folder and the one the settings name (a config that cannot be read
    leaves the default: start-up says what is wrong with it)."""
    folders = [paths.backups_dir()]
    try:
        configured = load_config(paths.config_path()).backup_folder.strip()
    except MemoryRushError:
        configured = ""
    if configured:
        folders.append(Path(configured).expanduser())
    return folders


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare it as written
        return path.expanduser().absolute()


def _same_file(a: Path, b: Path) -> bool:
    if _resolved(a) == _resolved(b):
        return True
    try:
        if os.path.samefile(a, b):
            return True
    except OSError:
        pass
    try:  # not there yet: the same name in the same folder (a case-insensitive disk too)
        return os.path.samefile(a.parent, b.parent) and a.name.casefold() == b.name.casefold()
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    target, root = _resolved(path), _resolved(folder)
    if target == root or root in target.parents:
        return True
    try:
        return any(os.path.samefile(parent, folder) for parent in target.parents if parent.exists())
    except OSError:
        return False


def refusal(target: Path, *, in_backup_folder: bool = False) -> str | None:
    """Why `target` must not be written, or None. `in_backup_folder`: a backup MemoryRush named
    itself in the backup folder (the one writer that belongs there)."""
    for file, what in library_files():
        if _same_file(target, file):
            return f"{target} is your MemoryRush {what} ({file}); writing there would destroy it"
    if not in_backup_folder:
        for folder in backup_folders():
            if _inside(target, folder):
                return (
                    f"{target} is inside MemoryRush's backup folder ({folder}), which holds the copies "
                    "a restore needs"
                )
    return None


def refuse_library_target(target: Path, *, in_backup_folder: bool = False) -> None:
    reason = refusal(target, in_backup_folder=in_backup_folder)
    if reason is not None:
        raise ExportError(f"{reason}; choose another file (nothing was written)")
