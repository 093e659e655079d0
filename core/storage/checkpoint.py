"""The WAL checkpoint of a large write, off the path of whoever waits for the write.

SQLite copied committed pages from the WAL back into the database file (a checkpoint) in the
first commit that left more than 1000 pages in the WAL. A bulk action on 100k cards leaves
~75 MB there, and copying it back (the writes and an fsync) took 0.9-2.5 s of wall time beside
0.15-0.2 s of CPU on the 1M-card bench library (bench/bench_browse.py --bulk-only, loaded
machine): most of what the action waited for once its work was done. No commit copies the WAL
back now (every connection has `wal_autocheckpoint = 0`): core/storage/wal.py's thread does,
a little after each write; `checkpoint_after()` has it start at once after the block's commit,
as a bulk action leaves much to copy. Nothing waits for that thread (a passive checkpoint takes
no lock a reader or a writer waits on), and a kill during it loses nothing (committed pages
stay in the WAL until copied; the next checkpoint copies them). `wait()` runs what is due and
joins it: Services.close, and the bench to time it apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from core.storage import wal
from core.storage.errors import translated


@contextmanager
@translated
def checkpoint_after() -> Iterator[None]:
    """The block's commit leaves its WAL pages for a background checkpoint, started at once
    (only when the block succeeded; an error rolls back and leaves nothing to copy). The block's
    own commit does not copy it back in place, however large (`wal.in_background`)."""
    with wal.in_background():  # the commit inside hands the copy to the thread at once (db._wrote)
        yield


@translated  # no SQLite here; the storage rule for every public function
def wait(timeout: float | None = None) -> None:
    """Until the checkpoints due so far are done (those waiting for their delay run at once)."""
    wal.flush(timeout)
