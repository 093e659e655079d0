"""Schema 6: the unit status index goes (Browse's (status, id) index holds the same order). A
schema-5 library (tests/fixtures/migrations/library_v5.sqlite3, written by the release before)
opens after a backup with every row as it was, its last bulk action (a trash) undoable, the
unit arm of Browse and the trash read through the index that stays."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from migration_support import old_library, upgrade_backup

from core.domain.browse import BrowseFilter, BrowseSort, Column
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import open_services
from core.storage import db as storage_db
from core.storage.browse.where import UNIT, target_sql
from core.storage.db import db

ROWS = (
    "SELECT id, status, status_before_trash, trashed_at FROM unit ORDER BY id",
    "SELECT id, queue, active, suspended, due FROM card ORDER BY id",
    "SELECT id, card_id, rating FROM review_log ORDER BY id",
    "SELECT day, n FROM review_due_day WHERE n != 0 ORDER BY day",
)


def _names(con: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}


def test_a_schema_5_library_loses_the_unit_status_index_and_nothing_else(data_home: Path) -> None:
    target, con = old_library(data_home, 5)
    assert {"unit_status", "browse_unit_status"} <= _names(con)
    before = [con.execute(sql).fetchall() for sql in ROWS]
    trashed = [r[0] for r in before[0] if r[1] == "trashed"]
    assert trashed  # the fixture's last bulk action trashed units
    con.close()

    svc = open_services(data_home, clock=FixedClock(datetime(2026, 12, 1, 10, 0, tzinfo=UTC)))
    try:
        con = sqlite3.connect(target)
        assert [con.execute(sql).fetchall() for sql in ROWS] == before  # data intact
        con.close()
        assert {e.unit_id for e in svc.browse.trash()} == set(trashed)
        sql, params = _unit_arm()
        plan = " ".join(str(r[3]) for r in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params))
        assert "browse_unit_status" in plan, plan
        shown = svc.browse.page(
            BrowseFilter(statuses=("trashed",)), BrowseSort(Column.STATUS), None, limit=50
        )
        assert {r.key.unit_id for r in shown.rows} == set(trashed)
        undone = svc.undo.undo(Scope.BULK)  # the trash, journalled under schema 5
        assert undone is not None and undone.action == "trash"
    finally:
        svc.close()

    con = sqlite3.connect(target)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION >= 6
        assert "unit_status" not in _names(con) and "browse_unit_status" in _names(con)
        assert con.execute("SELECT COUNT(*) FROM unit WHERE status = 'trashed'").fetchone()[0] == 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    upgrade_backup(data_home, 5).close()


def _unit_arm() -> tuple[str, dict[str, object]]:
    sql = target_sql(BrowseFilter(), UNIT, now=0, r_ratio=None)
    assert sql is not None
    return sql
