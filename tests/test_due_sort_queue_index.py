"""Schema 8: Browse's due index (due, id) goes and the sort by due reads the queue index
(queue, due) one queue at a time, merged by SQLite (core/storage/browse/by_queue.py). A schema-7
library opens after a backup without the index and with every row as it was; the sort gives the
cards of every queue in (due, id) order, page after page, without sorting them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_browse_speed import _paged, _varied_cards
from test_own_cards_save import traced
from test_review_support import q

from core.domain.browse import BrowseFilter, BrowseSort, Column
from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services
from core.storage import db as storage_db
from core.storage.db import db

ROWS = (
    "SELECT id, queue, state, due, stability, last_review FROM card ORDER BY id",
    "SELECT day, n FROM review_due_day WHERE n != 0 ORDER BY day",
)


def _indexes(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    finally:
        con.close()


def test_a_schema_7_library_loses_the_due_index_and_nothing_else(
    services: Services, clock: FixedClock, data_home: Path
) -> None:
    _varied_cards(services, clock, n_units=10)
    services.close()
    path = data_home / "memoryrush.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE INDEX IF NOT EXISTS browse_card_due ON card (due, id)")  # as schema 7 made it
    con.execute("PRAGMA user_version = 7")
    con.commit()
    before = [con.execute(sql).fetchall() for sql in ROWS]
    indexes = _indexes(path)
    con.close()

    svc = open_services(data_home, clock=clock)
    svc.close()
    assert _indexes(path) == indexes - {"browse_card_due"}
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
    assert [con.execute(sql).fetchall() for sql in ROWS] == before
    con.close()
    [backup] = sorted((data_home / "backups").glob("*v7-before-v*.sqlite3"))
    assert "browse_card_due" in _indexes(backup)


@pytest.mark.parametrize("descending", [False, True])
def test_the_due_sort_merges_the_queues_in_due_order_without_a_sort(
    services: Services, clock: FixedClock, descending: bool
) -> None:
    _varied_cards(services, clock, n_units=30)  # new, review, suspended and inactive cards
    assert len({r[0] for r in q("SELECT queue FROM card")}) >= 4
    order = " DESC" if descending else ""
    expected = [int(r[0]) for r in q(f"SELECT id FROM card ORDER BY due{order}, id{order}")]
    sort = BrowseSort(Column.DUE, descending)
    with traced() as sql:
        paged = _paged(services, sort, BrowseFilter(), 7)
    assert [k.card_id for k in paged if k.card_id is not None] == expected
    reads = [s for s in sql if s.startswith("SELECT") and "card_queue_due" in s]
    assert reads, sql
    for read in reads:
        plan = " ".join(str(r[3]) for r in db.execute_sql(f"EXPLAIN QUERY PLAN {read}"))
        assert "MERGE (UNION ALL)" in plan and "TEMP B-TREE" not in plan, plan
