"""Another process on the test's library: the scripts of tests/scripts started with
MEMORYRUSH_HOME pointing at it, and the database read (or its write lock held) from outside with
the standard library."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def start_script(name: str, home: Path) -> subprocess.Popen[str]:
    """tests/scripts/`name` running on the library in `home`, talked to by its stdin and stdout."""
    return subprocess.Popen(
        [sys.executable, str(SCRIPTS / name)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "MEMORYRUSH_HOME": str(home)},
    )


@contextmanager
def lock_held(home: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of the library in `home` while the block runs."""
    proc = start_script("hold_lock.py", home)
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("locked ")
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


@contextmanager
def write_locked() -> Iterator[None]:
    """Another connection holds the library's write lock (BEGIN IMMEDIATE) while the block runs:
    a write of the app waits for it, or fails busy."""
    from core.host import paths

    other = sqlite3.connect(str(paths.database_path()), timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.rollback()
        other.close()


def count(db_file: Path, sql: str) -> int:
    """The one number `sql` selects, read with a fresh stdlib connection (closed afterwards)."""
    con = sqlite3.connect(db_file)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()
