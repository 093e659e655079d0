"""A schema-3 library (tests/fixtures/migrations/library_v3.sqlite3, written by the release
before decks) opens: a backup copy first, then unit.deck_id and the undo snapshot's deck_id are
added (every unit in its own article's deck), its old bulk actions still undo, and a move to
another deck works and undoes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from core.domain.browse import BrowseFilter, Selection
from core.domain.undo import Scope
from core.services.bootstrap import open_services
from core.storage import db as storage_db

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "migrations" / "library_v3.sqlite3"


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in con.execute(f"PRAGMA table_info({table})")]


def test_a_schema_3_library_gets_decks_after_a_backup_and_keeps_its_undo(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    target = data_home / "memoryrush.sqlite3"
    shutil.copy(FIXTURE, target)
    con = sqlite3.connect(target)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 3
    assert "deck_id" not in _columns(con, "unit")
    units, pinned = con.execute("SELECT COUNT(*), SUM(pinned) FROM unit").fetchone()
    con.close()

    svc = open_services(data_home)
    try:
        assert svc.library.unit_count() == units
        undone = svc.undo.undo(Scope.BULK)  # the fixture's last bulk action, journalled before schema 4
        assert undone is not None and undone.action == "pin"
        first, second = svc.library.articles()[:2]
        result = svc.browse.move_to_deck(Selection(BrowseFilter(article_ids=(first.id,))), second.id)
        assert result.units > 0
        assert (
            svc.undo.undo(Scope.BULK) is not None and svc.undo.undo(Scope.BULK) is not None
        )  # the move, the suspend
    finally:
        svc.close()

    con = sqlite3.connect(target)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
        assert "deck_id" in _columns(con, "unit") and "deck_id" in _columns(con, "bulk_unit")
        assert con.execute("SELECT COUNT(*) FROM unit WHERE deck_id IS NOT NULL").fetchone()[0] == 0
        assert con.execute("SELECT SUM(pinned) FROM unit").fetchone()[0] == pinned - 1  # the pin undone
        assert con.execute("SELECT COUNT(*) FROM card WHERE suspended").fetchone()[0] == 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        indexes = {r[1] for r in con.execute("PRAGMA index_list(unit)")}
        assert any("deck" in name for name in indexes)
    finally:
        con.close()
    [backup] = sorted((data_home / "backups").glob("*.sqlite3"))
    assert f"v3-before-v{storage_db.SCHEMA_VERSION}" in backup.name
    old = sqlite3.connect(backup)
    try:
        assert old.execute("PRAGMA user_version").fetchone()[0] == 3
        assert "deck_id" not in _columns(old, "unit")
    finally:
        old.close()
