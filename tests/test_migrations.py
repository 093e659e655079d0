"""Schema versions: an older database is backed up, then migrated in one transaction; a newer
one is refused with a message and left byte-for-byte untouched."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import peewee
import pytest

from core.domain.errors import StorageError
from core.services.bootstrap import open_services
from core.storage import db as storage_db
from tests.faults.helpers import run_mr

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"


def db_file(home: Path) -> Path:
    return home / "memoryrush.sqlite3"


def make_library(home: Path) -> int:
    """A real library with articles in it; returns the number of units."""
    svc = open_services(home)
    try:
        svc.library.import_paths([SAMPLES], extractor="placeholder")
        return svc.library.unit_count()
    finally:
        svc.close()


def sql(home: Path, statement: str) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db_file(home))
    try:
        rows = con.execute(statement).fetchall()
        con.commit()
        return rows
    finally:
        con.close()


def backups(home: Path) -> list[Path]:
    return sorted((home / "backups").glob("*.sqlite3")) if (home / "backups").exists() else []


def test_a_fresh_library_makes_no_backup(data_home: Path) -> None:
    make_library(data_home)
    make_library(data_home)
    assert backups(data_home) == []


def test_an_unversioned_database_is_backed_up_then_stamped(data_home: Path) -> None:
    units = make_library(data_home)
    sql(data_home, "PRAGMA user_version = 0")
    svc = open_services(data_home)
    try:
        assert svc.library.unit_count() == units
    finally:
        svc.close()
    assert sql(data_home, "PRAGMA user_version") == [(storage_db.SCHEMA_VERSION,)]
    [backup] = backups(data_home)
    con = sqlite3.connect(backup)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 0  # the copy is of the old file
        assert con.execute("SELECT COUNT(*) FROM unit").fetchone()[0] == units
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()


CURRENT = storage_db.SCHEMA_VERSION
NEXT = CURRENT + 1


@pytest.fixture
def version_2(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A real next schema version: NEXT adds `article.note`, filled from the title."""
    ran: list[str] = []

    def add_note(database: peewee.SqliteDatabase) -> None:
        ran.append("next")
        database.execute_sql("ALTER TABLE article ADD COLUMN note TEXT NOT NULL DEFAULT ''")
        database.execute_sql("UPDATE article SET note = 'was: ' || title")

    monkeypatch.setattr(storage_db, "SCHEMA_VERSION", NEXT)
    monkeypatch.setitem(storage_db.MIGRATIONS, NEXT, add_note)
    return ran


def test_a_migration_step_runs_after_a_backup(data_home: Path, version_2: list[str]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(storage_db, "SCHEMA_VERSION", CURRENT)
        units = make_library(data_home)
    assert sql(data_home, "PRAGMA user_version") == [(CURRENT,)]

    svc = open_services(data_home)
    try:
        assert svc.library.unit_count() == units
    finally:
        svc.close()
    assert version_2 == ["next"]
    assert sql(data_home, "PRAGMA user_version") == [(NEXT,)]
    notes = sql(data_home, "SELECT note, title FROM article")
    assert notes and all(note == f"was: {title}" for note, title in notes)
    [backup] = backups(data_home)
    assert f"v{CURRENT}-before-v{NEXT}" in backup.name
    con = sqlite3.connect(backup)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == CURRENT
        columns = [r[1] for r in con.execute("PRAGMA table_info(article)")]
        assert "note" not in columns
    finally:
        con.close()

    # opening again: nothing left to migrate, no new backup
    open_services(data_home).close()
    assert version_2 == ["next"]
    assert len(backups(data_home)) == 1


def test_steps_run_in_order_from_the_stored_version(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_library(data_home)
    ran: list[int] = []
    monkeypatch.setattr(storage_db, "SCHEMA_VERSION", CURRENT + 3)
    for version in (CURRENT + 3, CURRENT + 1, CURRENT + 2):
        monkeypatch.setitem(storage_db.MIGRATIONS, version, lambda _db, v=version: ran.append(v))
    open_services(data_home).close()
    assert ran == [CURRENT + 1, CURRENT + 2, CURRENT + 3]
    assert sql(data_home, "PRAGMA user_version") == [(CURRENT + 3,)]


def test_a_failing_migration_changes_nothing(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    units = make_library(data_home)

    def half_then_fail(database: peewee.SqliteDatabase) -> None:
        database.execute_sql("ALTER TABLE article ADD COLUMN note TEXT")
        database.execute_sql("DELETE FROM evidence")
        raise RuntimeError("the next step broke")

    monkeypatch.setattr(storage_db, "SCHEMA_VERSION", NEXT)
    monkeypatch.setitem(storage_db.MIGRATIONS, NEXT, half_then_fail)
    with pytest.raises(StorageError) as info:
        open_services(data_home)
    message = str(info.value)
    assert "the next step broke" in message and "nothing was changed" in message and "backups" in message
    # all or nothing: the version, the column and the deleted rows are as before
    assert sql(data_home, "PRAGMA user_version") == [(CURRENT,)]
    assert "note" not in [r[1] for r in sql(data_home, "PRAGMA table_info(article)")]
    assert sql(data_home, "SELECT COUNT(*) FROM evidence")[0][0] >= units
    assert len(backups(data_home)) == 1
    # the lock was released with the failure: the old version still opens the library
    monkeypatch.setattr(storage_db, "SCHEMA_VERSION", CURRENT)
    svc = open_services(data_home)
    try:
        assert svc.library.unit_count() == units
    finally:
        svc.close()


def make_newer(home: Path) -> bytes:
    make_library(home)
    sql(home, "PRAGMA wal_checkpoint(TRUNCATE)")
    sql(home, f"PRAGMA user_version = {storage_db.SCHEMA_VERSION + 7}")
    return db_file(home).read_bytes()


def test_a_newer_database_is_refused_and_untouched(data_home: Path) -> None:
    before = make_newer(data_home)
    with pytest.raises(StorageError, match="newer MemoryRush") as info:
        open_services(data_home)
    assert "nothing was changed" in str(info.value)
    assert db_file(data_home).read_bytes() == before
    assert backups(data_home) == []


def test_a_newer_rollback_journal_database_stays_untouched(data_home: Path) -> None:
    """Even the journal mode is not switched to WAL before the version check."""
    data_home.mkdir(parents=True)
    con = sqlite3.connect(db_file(data_home))
    con.execute("CREATE TABLE article (id INTEGER PRIMARY KEY, title TEXT)")
    con.execute("INSERT INTO article (title) VALUES ('from the future')")
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    before = db_file(data_home).read_bytes()
    with pytest.raises(StorageError, match="schema 99"):
        open_services(data_home)
    assert db_file(data_home).read_bytes() == before
    assert not Path(f"{db_file(data_home)}-wal").exists()


def test_the_cli_refuses_a_newer_database_without_a_traceback(data_home: Path) -> None:
    before = make_newer(data_home)
    result = run_mr(data_home, "list")
    assert result.returncode == 2
    assert "newer MemoryRush" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert db_file(data_home).read_bytes() == before


@pytest.mark.parametrize(
    "drop",
    [
        "DROP TRIGGER card_due_day_ins",  # a schema hook's piece
        "DROP TABLE search_feedback",  # another hook's table
        "DROP INDEX unit_article_id_status",  # a model's index
    ],
)
def test_a_current_library_missing_a_piece_gets_it_back_at_open(data_home: Path, drop: str) -> None:
    """An open at the current version skips the DDL when sqlite_master already has every table,
    index and trigger; if one is missing it is created again, with no backup and no version change."""
    make_library(data_home)
    everything = set(sql(data_home, "SELECT type, name FROM sqlite_master"))
    sql(data_home, drop)
    assert set(sql(data_home, "SELECT type, name FROM sqlite_master")) < everything
    make_library(data_home)
    assert set(sql(data_home, "SELECT type, name FROM sqlite_master")) == everything
    assert sql(data_home, "PRAGMA user_version") == [(storage_db.SCHEMA_VERSION,)]
    assert backups(data_home) == []


def test_every_schema_piece_is_known_to_the_completeness_check(data_home: Path) -> None:
    """What the models and hooks create is exactly what the open checks for (FTS5 shadow tables
    and SQLite's own autoindexes and statistics aside): a piece added without its name would
    never be re-created in an existing library."""
    make_library(data_home)
    present = {name for (name,) in sql(data_home, "SELECT name FROM sqlite_master")}
    shadow = {
        n
        for n in present
        if n.startswith("sqlite_") or n.endswith(("_config", "_data", "_docsize", "_idx", "_content"))
    }
    assert present - shadow == storage_db._expected_names()


def test_an_upgrade_waits_for_an_older_instance_to_close(data_home: Path) -> None:
    """A command that reads beside the app (search, session: not exclusive) does not upgrade a
    library another MemoryRush holds: that one, older, would go on writing the old way under
    the new schema. It says so, the file stays as it was, and once the holder is gone it
    upgrades (after its backup)."""
    import shutil

    from core.domain.errors import AlreadyRunning
    from core.host.lock import InstanceLock
    from core.storage.layout import SCHEMA_VERSION

    fixture = Path(__file__).resolve().parent / "fixtures" / "migrations" / "library_v8.sqlite3"
    data_home.mkdir(parents=True, exist_ok=True)
    shutil.copy(fixture, db_file(data_home))
    before = db_file(data_home).read_bytes()
    older = InstanceLock(data_home / "memoryrush.lock").acquire()  # the older app, still open
    try:
        with pytest.raises(AlreadyRunning, match=f"needs upgrading to schema {SCHEMA_VERSION}") as refused:
            open_services(data_home, exclusive=False)
        said = str(refused.value)
        assert (
            f"(pid {os.getpid()}), an older one, has it open; close that one" in said
            and "--data-dir" not in said
        )
        assert db_file(data_home).read_bytes() == before and backups(data_home) == []
        # a backup needs no upgrade: the file is copied as it is, beside the older app
        copy = run_mr(data_home, "backup", str(data_home / "copy.sqlite3"))
        assert copy.returncode == 0, copy.stderr
        assert sqlite3.connect(data_home / "copy.sqlite3").execute("PRAGMA user_version").fetchone() == (8,)
        listed = run_mr(data_home, "backup", "--list")
        assert listed.returncode == 0 and "0 backups" in listed.stdout, listed.stderr
        assert db_file(data_home).read_bytes() == before
    finally:
        older.release()
    svc = open_services(data_home, exclusive=False)
    svc.close()
    assert sql(data_home, "PRAGMA user_version") == [(SCHEMA_VERSION,)] and len(backups(data_home)) == 1
    again = InstanceLock(data_home / "memoryrush.lock").acquire()  # the upgrade let go of it
    again.release()
