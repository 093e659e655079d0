"""The WAL checkpoint of a large write, off the path of whoever waits for the write.

SQLite copies committed pages from the WAL back into the database file (a checkpoint) in the
first commit that leaves more than 1000 pages in the WAL. A bulk action on 100k cards leaves
~75 MB there, and copying it back (the writes and an fsync) took 0.9-2.5 s of wall time beside
0.15-0.2 s of CPU on the 1M-card bench library (bench/bench_browse.py --bulk-only, loaded
machine): most of what the action waited for once its work was done. `checkpoint_after()`
commits such a transaction without it, and a background thread with its own connection copies
the pages back right after. Nothing waits for that thread: a passive checkpoint takes no lock a
reader or a writer waits on (another commit's own checkpoint meanwhile finds it running and is
skipped), and a kill during it loses nothing (committed pages stay in the WAL until copied; the
next checkpoint copies them). `wait()` joins it: Services.close, and the bench to time it apart.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from core.storage.db import busy_timeout_ms, db
from core.storage.errors import translated

AUTO_PAGES = 1000  # SQLite's default wal_autocheckpoint, put back after the transaction
_threads: list[threading.Thread] = []


@contextmanager
@translated
def checkpoint_after() -> Iterator[None]:
    """The block's commit leaves its WAL pages for a background checkpoint (only when the block
    succeeded; an error rolls back and leaves nothing to copy)."""
    db.execute_sql("PRAGMA wal_autocheckpoint = 0")
    try:
        yield
    finally:
        db.execute_sql(f"PRAGMA wal_autocheckpoint = {AUTO_PAGES}")
    thread = threading.Thread(
        target=_checkpoint, args=(str(db.database),), name="memoryrush-wal-checkpoint", daemon=True
    )
    _threads[:] = [t for t in _threads if t.is_alive()]
    _threads.append(thread)
    thread.start()


def _checkpoint(path: str) -> None:
    try:
        con = sqlite3.connect(path, timeout=busy_timeout_ms() / 1000)
        try:
            con.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            con.close()
    except sqlite3.Error:
        return  # nothing lost: the next commit past AUTO_PAGES checkpoints instead


@translated  # no SQLite here; the storage rule for every public function
def wait(timeout: float | None = None) -> None:
    """Until the background checkpoints started so far are done."""
    for thread in list(_threads):
        thread.join(timeout)
