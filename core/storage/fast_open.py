"""Opening a library that needs nothing done, without loading peewee: the app's cold start.

Importing peewee and building the table classes was ~76M of the ~1.15G instructions to the
app's first frame (callgrind, bench/tui_cold.py; bare Textual ~0.89G), and that frame (Home,
whose figures a worker reads after it) reads no table. So open_services first reads the file
here with the sqlite3 module: when it is this version's, complete, writable, with nothing for
start-up to do (no unit in the trash to purge, no article of an older reader to re-render), it
is only remembered, and core.storage.db binds its database to it when first imported (by the
first read, after the first frame). Any other file (missing, empty, older, newer, incomplete,
damaged, read-only) takes the full open (core.storage.schema.open_database), which creates,
migrates with a backup, refuses or says what is wrong, as before.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from core.storage.layout import SCHEMA_NAMES, SCHEMA_VERSION, writable

_waiting: Path | None = None  # checked by ready(), not bound yet (core.storage.db takes it)

# What start-up has to do before anything else reads (open_services): the full open runs the
# same two queries on its own connection.
_TRASH = "SELECT 1 FROM unit WHERE status = 'trashed' LIMIT 1"
_OLDER_READERS = "SELECT 1 FROM article WHERE reader_version < ? LIMIT 1"


def trash_waiting(con: sqlite3.Connection) -> bool:
    """Whether any unit is in the trash: without one, start-up skips the purge and its imports."""
    return con.execute(_TRASH).fetchone() is not None


def older_readers_waiting(con: sqlite3.Connection, reader_version: int) -> bool:
    """Whether an article was read by a reader older than `reader_version` (one indexed read):
    without one, start-up skips re-rendering (core.services.refresh) and its imports."""
    return con.execute(_OLDER_READERS, (reader_version,)).fetchone() is not None


def storage_loaded() -> bool:
    """Whether this process has loaded the peewee database (core.storage.db) already."""
    return "core.storage.db" in sys.modules


def ready(path: Path, reader_version: int) -> bool:
    """Whether the library file at `path` is to be bound later, by its first read; if so it is
    remembered for core.storage.db. False when peewee is loaded anyway (nothing to save: tests,
    a second open) or when the full open has something to do or to say."""
    global _waiting
    fine = not storage_loaded() and needs_nothing(path, reader_version)
    _waiting = path if fine else None
    return fine


def needs_nothing(path: Path, reader_version: int) -> bool:
    """Whether the file at `path` is this version's library, complete and writable, with no
    start-up work waiting (a trashed unit, an older reader's article)."""
    try:
        if path.stat().st_size == 0 or not writable(path):
            return False
        # read-only: this connection never copies the WAL back when it closes
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            if con.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                return False
            present = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
            if not present >= SCHEMA_NAMES:  # nothing missing (more is fine)
                return False
            return not trash_waiting(con) and not older_readers_waiting(con, reader_version)
        finally:
            con.close()
    except (OSError, sqlite3.Error):  # the full open says what is wrong
        return False


def older_schema(path: Path) -> bool:
    """Whether the file at `path` is a library of an older schema (one the full open upgrades)."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return False
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = int(con.execute("PRAGMA user_version").fetchone()[0])
            tables = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone()
            return tables is not None and version < SCHEMA_VERSION
        finally:
            con.close()
    except (OSError, sqlite3.Error):  # the full open says what is wrong
        return False


def take() -> Path | None:
    """The file ready() checked, for core.storage.db to bind when it is imported (once)."""
    global _waiting
    path, _waiting = _waiting, None
    return path


def forget() -> None:
    """The library was closed before anything read it: nothing is bound to it later."""
    global _waiting
    _waiting = None
