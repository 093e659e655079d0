"""Older schema: migrated after a backup copy. Newer schema: refused, file untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from core.storage.db import SCHEMA_VERSION

from .helpers import SAMPLES, db_file, integrity, mr, scalar, tables

DROPPED = ("setting", "curation_event")  # tables an older release did not have


def _library_with_one_article(home: Path) -> None:
    result = mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder")
    assert result.returncode == 0, result.stderr


def _set_version(home: Path, version: int, drop: tuple[str, ...] = ()) -> None:
    con = sqlite3.connect(str(db_file(home)))
    try:
        for table in drop:
            con.execute(f"DROP TABLE {table}")
        con.execute(f"PRAGMA user_version = {version}")
        con.commit()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()


def test_older_schema_is_backed_up_then_migrated(home: Path) -> None:
    _library_with_one_article(home)
    _set_version(home, SCHEMA_VERSION - 1, DROPPED)
    units_before = scalar(home, "SELECT COUNT(*) FROM unit")

    result = mr(home, "list")

    assert result.returncode == 0, result.stderr
    assert "Photosynthesis: how plants" in result.stdout  # the first line is the title
    assert scalar(home, "PRAGMA user_version") == SCHEMA_VERSION
    assert set(DROPPED) <= tables(home)
    assert scalar(home, "SELECT COUNT(*) FROM unit") == units_before
    assert integrity(home) == "ok"
    backups = sorted((home / "backups").glob("*.sqlite3"))
    assert len(backups) == 1, backups
    con = sqlite3.connect(str(backups[0]))
    try:  # the backup is the database as it was before the migration
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1
        assert con.execute("SELECT COUNT(*) FROM unit").fetchone()[0] == units_before
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    again = mr(home, "list")  # a current database is not backed up again
    assert again.returncode == 0
    assert len(list((home / "backups").glob("*.sqlite3"))) == 1


def test_newer_schema_is_refused_and_left_untouched(home: Path) -> None:
    _library_with_one_article(home)
    _set_version(home, SCHEMA_VERSION + 1)
    digest = hashlib.sha256(db_file(home).read_bytes()).hexdigest()

    for command in (["list"], ["import", str(SAMPLES / "spaced-repetition.md")]):
        result = mr(home, *command)
        assert result.returncode == 2, result
        assert "newer MemoryRush" in result.stderr
        assert "upgrade" in result.stderr
        assert "traceback" not in result.stderr.lower()

    assert hashlib.sha256(db_file(home).read_bytes()).hexdigest() == digest
    assert scalar(home, "PRAGMA user_version") == SCHEMA_VERSION + 1
    assert not list((home / "backups").glob("*.sqlite3")) if (home / "backups").exists() else True


def test_damaged_database_is_refused_with_a_way_out(home: Path) -> None:
    home.mkdir(exist_ok=True)
    db_file(home).write_bytes(b"this is not a database file at all" * 200)

    result = mr(home, "list")

    assert result.returncode == 2
    assert "damaged" in result.stderr
    assert "backups" in result.stderr
    assert "traceback" not in result.stderr.lower()
