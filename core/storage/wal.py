"""The WAL checkpoint, copied back by one background thread instead of inside a commit.

SQLite copies committed pages from the WAL back into the database file (a checkpoint) in the
first commit that leaves more than 1000 pages in the WAL (its `wal_autocheckpoint`): on the UI
thread that was an answer or a card save every ~46 answers waiting 9-11 ms on a quiet machine
(30-80 ms at load 3) for the copy and its two fsyncs, beside ~0.5 ms of CPU (bench/bench_tui.py,
"rating -> next card", "c -> cloze saved"). Every connection of the library is opened with
`wal_autocheckpoint = 0` (core/storage/db.py), and every write transaction that commits calls
`wrote()`: the thread copies the pages back DELAY later, in one passive checkpoint for all the
writes of that span, with its own connection.

The WAL stays bounded. A background checkpoint copies what was committed when it began, and the
WAL starts again from its beginning only once all of it is copied: writes that come faster than
the thread copies (answers 1.5 ms apart in tests/test_wal_checkpoint.py) grew it by 18 pages an
answer, 7,800 pages in 0.7 s. So a commit that leaves the WAL file past LIMIT_PAGES (SQLite's
own 1000) checkpoints in place after all (`over_limit`, a stat of the file: core/storage/db.py),
as SQLite did; `journal_size_limit` (`limit_bytes`) cuts the file back to that size when the
WAL starts again, so its size says how much it holds. In use a reader's keys come far slower
than the thread copies, and no UI commit reaches the limit.

Nothing waits for the thread: a passive checkpoint takes no lock a reader or a writer waits on,
and a kill during it (or before it ran) loses nothing: committed pages stay in the WAL until
copied, and the next checkpoint (or the next open, or the last connection's close) copies them.
`flush()` runs what is due at once and waits for it (Services.close; the bench times it apart).
No SQLite error leaves this module: a checkpoint that fails is left to the next one.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.storage.errors import translated

LIMIT_PAGES = 1000  # past it a commit checkpoints itself (SQLite's default wal_autocheckpoint)
PAGE_SIZE = 4096  # SQLite's default page size; the library never sets another
DELAY = 0.25  # s from a commit to the checkpoint: the writes of a burst are copied back together
_cond = threading.Condition()
_due: dict[str, float] = {}  # database path -> its busy timeout (s), to copy back at the next turn
_state = {"running": 0, "hurry": False}
_thread: threading.Thread | None = None
_local = threading.local()  # .background: this thread's commits leave the copy to the thread


@translated  # no SQLite error leaves here; the storage rule for every public function
def wrote(path: str, timeout: float, *, now: bool = False) -> None:
    """A write transaction on `path` committed: its pages are copied back DELAY later (`now`:
    at once, as after a bulk action). A few µs here; the copy is the thread's."""
    global _thread
    with _cond:
        waiting = not _due  # the thread waits for a first write (else it is in its delay already)
        _due[path] = timeout
        if now:
            _state["hurry"] = True
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, name="memoryrush-wal-checkpoint", daemon=True)
            _thread.start()
        if waiting or now:  # woken by every answer, the thread took the GIL from the UI each time
            _cond.notify_all()


@contextmanager
@translated  # no SQLite error leaves here; the storage rule for every public function
def in_background() -> Iterator[None]:
    """The commits of this thread inside the block never copy the WAL back in place, past the
    limit or not: a bulk write's ~75 MB is the thread's at once (checkpoint_after)."""
    before = getattr(_local, "background", False)
    _local.background = True
    try:
        yield
    finally:
        _local.background = before


@translated  # no SQLite error leaves here; the storage rule for every public function
def backgrounded() -> bool:
    return bool(getattr(_local, "background", False))


@translated  # no SQLite error leaves here; the storage rule for every public function
def limit_bytes() -> int:
    """The WAL file's size at LIMIT_PAGES: its header, then a 24-byte header for each page."""
    return 32 + LIMIT_PAGES * (PAGE_SIZE + 24)


@translated  # no SQLite error leaves here; the storage rule for every public function
def over_limit(path: str) -> bool:
    """Whether the WAL of `path` holds more than LIMIT_PAGES (its file is cut back to
    `limit_bytes` when it starts again): the committing connection then checkpoints itself."""
    try:
        return os.stat(f"{path}-wal").st_size > limit_bytes()
    except OSError:
        return False


@translated  # no SQLite error leaves here; the storage rule for every public function
def idle() -> bool:
    """Nothing to copy back and no copy running."""
    with _cond:
        return not _due and not _state["running"]


@translated  # no SQLite error leaves here; the storage rule for every public function
def flush(timeout: float | None = None) -> None:
    """Copy back what is due now, and wait (up to `timeout` s) until no checkpoint runs."""
    deadline = None if timeout is None else time.monotonic() + timeout
    with _cond:
        _state["hurry"] = True
        _cond.notify_all()
        while _due or _state["running"]:
            if not _state["running"] and (_thread is None or not _thread.is_alive()):
                _due.clear()  # no thread to copy it: the pages stay in the WAL for the next checkpoint
                return
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            _cond.wait(left)


def _loop() -> None:
    while True:
        with _cond:
            while not _due:
                _state["hurry"] = False
                _cond.wait()
            deadline = time.monotonic() + DELAY
            while not _state["hurry"] and (left := deadline - time.monotonic()) > 0:
                _cond.wait(left)
            due = dict(_due)
            _due.clear()
            _state["hurry"] = False
            _state["running"] += 1
        try:
            for path, timeout in due.items():
                _checkpoint(path, timeout)
        finally:
            with _cond:
                _state["running"] -= 1
                _cond.notify_all()


def _checkpoint(path: str, timeout: float) -> None:
    """One passive checkpoint of `path` with a connection of its own (a file that is gone is
    not made again: opened read-write, not created)."""
    try:
        con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=rw", uri=True, timeout=timeout)
        try:
            con.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            con.close()
    except (sqlite3.Error, OSError, ValueError):  # a gone or odd path too: the thread lives on
        return  # nothing lost: the pages stay in the WAL for the next checkpoint
