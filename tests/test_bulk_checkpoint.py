"""A bulk action's commit leaves its WAL pages to a background checkpoint
(core.storage.checkpoint): the pages are copied back right after, the connection's own automatic
checkpoint stays off (core/storage/wal.py's thread copies back every write), and a failed action
starts nothing. (Guards: they pass before the change too, where the commit copied the pages back
itself; the time it saves is measured by bench/bench_browse.py --bulk-only, not asserted.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bench.library_rows import fill_library
from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.domain.errors import StorageError
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import open_services
from core.storage import checkpoint, wal
from core.storage.db import db
from tests.conftest import FIXED_NOW
from tests.faults.helpers import wal_frames


def test_a_bulk_action_is_copied_back_from_the_wal_after_its_commit(data_home: Path) -> None:
    clock = FixedClock(FIXED_NOW)
    open_services(data_home, clock=clock).close()
    path = data_home / "memoryrush.sqlite3"
    fill_library(path, 20_000, now=int(FIXED_NOW.timestamp()))
    svc = open_services(data_home, clock=clock)
    try:
        result = svc.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter()))
        assert result.cards == 20_000
        assert db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        checkpoint.wait(timeout=60)
        log, done = wal_frames(path)
        assert log > 0 and done == log  # all of it copied back, by the thread
        assert svc.undo.undo(Scope.BULK) is not None
        checkpoint.wait(timeout=60)
        assert db.execute_sql("SELECT COUNT(*) FROM card WHERE suspended = 1").fetchone()[0] == 0
    finally:
        svc.close()
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()


def test_a_failed_bulk_action_starts_no_checkpoint(data_home: Path) -> None:
    svc = open_services(data_home, clock=FixedClock(FIXED_NOW))
    try:
        checkpoint.wait()
        assert wal.idle()
        db.execute_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON bulk_journal BEGIN SELECT RAISE(ABORT, 'no'); END"
        )
        with pytest.raises(StorageError):
            svc.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter()))
        assert wal.idle()  # nothing due: the rolled-back action left nothing to copy
        assert db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    finally:
        svc.close()


def test_a_bulk_commit_past_the_limit_leaves_the_copy_to_the_thread(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20k cards suspended leave ~900 pages in the WAL, past a limit of 100: the acting connection
    (SQLite's own trace of it) runs no checkpoint; the thread copies it all back."""
    monkeypatch.setattr(wal, "LIMIT_PAGES", 100)
    clock = FixedClock(FIXED_NOW)
    open_services(data_home, clock=clock).close()
    path = data_home / "memoryrush.sqlite3"
    fill_library(path, 20_000, now=int(FIXED_NOW.timestamp()))
    svc = open_services(data_home, clock=clock)
    statements: list[str] = []
    try:
        checkpoint.wait(timeout=60)
        db.connection().set_trace_callback(statements.append)
        svc.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter()))
        db.connection().set_trace_callback(None)
        assert wal.over_limit(str(path))
        assert not [s for s in statements if "wal_checkpoint" in s.lower()]
        checkpoint.wait(timeout=60)
        log, done = wal_frames(path)
        assert done == log
    finally:
        svc.close()


def test_a_nested_write_commits_with_its_outer_transaction_past_the_limit(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write_transaction inside another (a savepoint) never checkpoints there: a checkpoint
    inside the open transaction fails ("table is locked") and rolled the outer one back."""
    from core.storage.db import write_transaction

    svc = open_services(data_home, clock=FixedClock(FIXED_NOW))
    try:
        monkeypatch.setattr(wal, "LIMIT_PAGES", 0)  # every WAL is past the limit
        with write_transaction():
            db.execute_sql("INSERT INTO setting (key, value_json) VALUES ('outer', '1')")
            with write_transaction():
                db.execute_sql("INSERT INTO setting (key, value_json) VALUES ('inner', '2')")
        rows = db.execute_sql("SELECT key FROM setting WHERE key IN ('outer', 'inner') ORDER BY key")
        assert [k for (k,) in rows] == ["inner", "outer"]
    finally:
        svc.close()
