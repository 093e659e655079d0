"""Writing an export file (never over the library: guard.py) so that a crash never leaves half of it under the final name.

Everything is written to a hidden partial file beside the target (same folder, so the rename is
atomic), flushed to disk, then renamed over the target. A failure removes the partial file; a
`kill -9` leaves it behind under its partial name, and the next export to the same target
removes partial files whose writer is gone (a backup, whose name is new each time, removes those
of every backup in its folder: core.services.backup).

Whatever stops the write, the reader gets one sentence from here: "could not write OUT: disk
full; nothing was written there". A writer may build its file with SQLite in a scratch file
beside the partial one (the Anki export's collection), so SQLite's errors are reported here as
the operating system's are: SQLite's "database or disk is full" was a traceback before.
"""

from __future__ import annotations

import errno
import fnmatch
import glob
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.services.export.guard import ExportError, refuse_library_target

PARTIAL = ".partial"
_FULL = {errno.ENOSPC, errno.EDQUOT}


# .<final name>.<writer's pid>.partial, and its scratch files .<...>.partial.<suffix>
_PARTIAL_NAME = re.compile(rf"^\.(?P<final>.+)\.(?P<pid>\d+){re.escape(PARTIAL)}(?:\..+)?$", re.DOTALL)


def partial_name(final: Path, pid: int | None = None) -> Path:
    return final.with_name(f".{final.name}.{pid or os.getpid()}{PARTIAL}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_partials(folder: Path, finals: str = "*") -> int:
    """Remove the partial files in `folder` of targets named like `finals` (a glob; and their
    scratch files, `<partial>.<suffix>`) whose writer died (kill -9, power cut); a live
    writer's stay. Returns how many unfinished writes were removed."""
    removed: set[tuple[str, int]] = set()
    for path in folder.glob(f".*{PARTIAL}*"):
        found = _PARTIAL_NAME.match(path.name)
        if found is None or not fnmatch.fnmatchcase(found["final"], finals):
            continue
        pid = int(found["pid"])
        if pid != os.getpid() and not _alive(pid):
            path.unlink(missing_ok=True)
            removed.add((found["final"], pid))
    return len(removed)


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_path(final: Path, *, in_backup_folder: bool = False) -> Iterator[Path]:
    """Yield a partial path to write; on success it becomes `final` in one rename. The library's
    own files and its backup folder are refused first (core.services.export.guard;
    `in_backup_folder`: a backup MemoryRush named itself there)."""
    final = final.expanduser()
    refuse_library_target(final, in_backup_folder=in_backup_folder)
    if final.is_dir():
        raise ExportError(f"{final} is a folder; give a file name")
    if not final.parent.is_dir():
        raise ExportError(f"the folder {final.parent} does not exist; create it first")
    remove_stale_partials(final.parent, glob.escape(final.name))
    partial = partial_name(final)
    try:
        yield partial
        fsync_file(partial)
        os.replace(partial, final)
        fsync_dir(final.parent)
    except (OSError, sqlite3.DatabaseError) as exc:
        partial.unlink(missing_ok=True)
        raise ExportError(f"could not write {final}: {_why(exc)}; nothing was written there") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _why(exc: OSError | sqlite3.DatabaseError) -> str:
    """What stopped a write, in a few words: "disk full" whether the system or SQLite said it."""
    if isinstance(exc, OSError):
        return "disk full" if exc.errno in _FULL else str(exc.strerror or exc)
    if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
        return "disk full"
    return str(exc)
