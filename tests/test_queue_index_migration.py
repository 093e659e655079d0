"""Schema 5: the review session's index holds review cards only (a partial index) and the due-day
update trigger is split in two. A schema-4 library (tests/fixtures/migrations/library_v4.sqlite3,
written by the release before) opens after a backup with every card in its queue, the counter
right and its last bulk action undoable; the session's queries read the new index, covering;
and the session ranks a seeded library's due cards exactly as the rule says."""

from __future__ import annotations

import math
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from migration_support import old_library, upgrade_backup

from bench.library_rows import fill_library
from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import open_services
from core.storage import db as storage_db
from core.storage.db import db
from core.storage.review import queue
from core.storage.review.models import SESSION_INDEX

OLD_INDEX = "card_queue_sbucket_t90_due_last_review_stability_unit_id"
COUNTED = "SELECT due / 86400, COUNT(*) FROM card WHERE queue = 2 GROUP BY 1 ORDER BY 1"
COUNTER = "SELECT day, n FROM review_due_day WHERE n != 0 ORDER BY day"


def _names(con: sqlite3.Connection, kind: str) -> set[str]:
    return {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,))}


def test_a_schema_4_library_gets_the_partial_session_index_after_a_backup(data_home: Path) -> None:
    target, con = old_library(data_home, 4)
    assert OLD_INDEX in _names(con, "index") and "card_due_day_upd" in _names(con, "trigger")
    queues = con.execute("SELECT id, queue FROM card ORDER BY id").fetchall()
    assert {q for _, q in queues} == {-3, -2, -1, 0, 1, 2}  # the fixture has every queue
    con.close()

    svc = open_services(data_home, clock=FixedClock(datetime(2026, 12, 1, 10, 0, tzinfo=UTC)))
    try:
        undone = svc.undo.undo(Scope.BULK)  # the fixture's last bulk action, journalled under schema 4
        assert undone is not None and undone.action == "suspend"
        again = svc.browse.act(
            BulkAction.SUSPEND, Selection(BrowseFilter())
        )  # every card, by the new triggers
        assert again.cards > 0
    finally:
        svc.close()

    con = sqlite3.connect(target)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
        assert OLD_INDEX not in _names(con, "index") and SESSION_INDEX in _names(con, "index")
        triggers = _names(con, "trigger")
        assert "card_due_day_upd" not in triggers and {"card_due_day_out", "card_due_day_in"} <= triggers
        partial = {str(r[1]): int(r[4]) for r in con.execute("PRAGMA index_list(card)")}
        assert partial[SESSION_INDEX] == 1 and partial["card_queue_due"] == 0
        assert con.execute("SELECT COUNT(*) FROM card WHERE queue = 2").fetchone()[0] == 0  # all suspended
        assert con.execute(COUNTER).fetchall() == []  # ... and the counter followed, once each
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    old = upgrade_backup(data_home, 4)
    try:
        assert old.execute("SELECT id, queue FROM card ORDER BY id").fetchall() == queues
    finally:
        old.close()


def test_the_session_queries_read_the_partial_index_covering(services: object) -> None:
    reads = {
        "buckets": (queue._BUCKETS_SQL, ()),
        "first": (queue._FIRST_SQL, (1, 2, 3)),
        "rest": (queue._REST_SQL, (1, 2, 3, 4, 5, 6)),
    }
    for what, (sql, params) in reads.items():
        plan = " | ".join(str(r[3]) for r in db.execute_sql(f"EXPLAIN QUERY PLAN {sql}", params))
        assert f"COVERING INDEX {SESSION_INDEX}" in plan, (what, plan)


def test_the_session_ranks_a_seeded_librarys_due_cards_as_the_rule_says(data_home: Path) -> None:
    """Lowest retrievability first (k = elapsed / stability highest, ties by card id), review
    cards only: suspended, buried and retired cards left the index and are never offered."""
    now = int(datetime(2026, 11, 2, 12, 0, tzinfo=UTC).timestamp())
    clock = FixedClock(datetime.fromtimestamp(now, UTC))
    open_services(data_home, clock=clock).close()
    fill_library(data_home / "memoryrush.sqlite3", 4000, now=now, per_article=100)
    svc = open_services(data_home, clock=clock)
    try:
        svc.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter(article_ids=(1, 2))))
        svc.browse.act(BulkAction.BURY, Selection(BrowseFilter(article_ids=(3,))))
        svc.browse.act(BulkAction.TRASH, Selection(BrowseFilter(article_ids=(4,))))
        day_end = now + 6 * 3600
        rows = db.execute_sql(
            "SELECT id, unit_id, last_review, stability FROM card WHERE queue = 2 AND due < ?", (day_end,)
        ).fetchall()
        expected = sorted(rows, key=lambda r: (-((now - r[2]) / r[3] if r[3] else math.inf), r[0]))
        assert len(expected) > 300
        for limit in (1, 50, 200, len(expected) + 10):
            got = queue.due_review_candidates(day_end, now, limit)
            assert got == [(r[0], r[1]) for r in expected[:limit]], limit
        in_index = db.execute_sql(
            f"SELECT COUNT(*) FROM card INDEXED BY {SESSION_INDEX} WHERE queue = 2"
        ).fetchone()
        assert in_index[0] == db.execute_sql("SELECT COUNT(*) FROM card WHERE queue = 2").fetchone()[0] < 4000
        assert db.execute_sql(COUNTER).fetchall() == db.execute_sql(COUNTED).fetchall()
    finally:
        svc.close()
