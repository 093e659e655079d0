"""Storage: one SQLite file with WAL, foreign keys and a busy timeout; epoch integer times;
the schema version recorded; repositories hand out frozen dataclasses."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from core.host import paths
from core.services.bootstrap import Services
from core.storage import db as storage_db

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"


def raw(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "memoryrush.sqlite3")


def test_pragmas_are_on(services: Services) -> None:
    database = storage_db.db
    assert database.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert database.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert database.execute_sql("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert Path(database.database) == paths.database_path()


def test_the_database_file_is_in_wal_mode_for_every_connection(services: Services, data_home: Path) -> None:
    con = raw(data_home)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    finally:
        con.close()


def test_schema_version_is_recorded(services: Services, data_home: Path) -> None:
    con = raw(data_home)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
    finally:
        con.close()
    assert storage_db.schema_version(paths.database_path()) == storage_db.SCHEMA_VERSION


def test_times_are_epoch_integers(services: Services, data_home: Path) -> None:
    outcomes = services.library.import_paths([SAMPLES], extractor="placeholder")
    assert all(o.status in ("imported", "skipped") for o in outcomes)  # skipped: the package's .py
    units = services.library.units()
    services.curation.accept(units[0].id)
    services.curation.reject(units[1].id)
    services.curation.trash(units[2].id)
    con = raw(data_home)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        checked = 0
        for table in tables:
            columns = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
            for column in columns:
                if column.endswith(("_at", "_time")) or column in {"at", "due", "last_review"}:
                    kinds = {r[0] for r in con.execute(f'SELECT DISTINCT typeof("{column}") FROM "{table}"')}
                    assert kinds <= {"integer", "null"}, (table, column, kinds)
                    checked += 1
        assert checked >= 5
        added = con.execute("SELECT added_at FROM article").fetchall()
        assert {a for (a,) in added} == {int(services.clock.now().timestamp())}
    finally:
        con.close()


def test_foreign_keys_cascade_paragraphs_and_units(services: Services, data_home: Path) -> None:
    services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="placeholder")
    con = raw(data_home)
    try:
        con.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(
                "INSERT INTO paragraph (article_id, paragraph_id, position, kind, text) VALUES (999, 'p', 0, 'paragraph', 't')"
            )
    finally:
        con.close()


def test_repositories_hand_out_frozen_dataclasses(services: Services) -> None:
    services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="placeholder")
    article = services.library.articles()[0]
    unit = services.library.units(article.id)[0]
    paragraph = services.library.paragraphs(article.id)[0]
    for obj in (article, unit, paragraph, unit.evidence[0], unit.questions[0]):
        assert dataclasses.is_dataclass(obj)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, dataclasses.fields(obj)[0].name, 5)


def test_a_damaged_file_is_refused_with_a_message(data_home: Path) -> None:
    from core.domain.errors import StorageError
    from core.services.bootstrap import open_services

    data_home.mkdir(parents=True)
    (data_home / "memoryrush.sqlite3").write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError, match=r"damaged|not a database"):
        open_services(data_home)
    # the lock was released: a second try gives the same message, not "already running"
    with pytest.raises(StorageError, match=r"damaged|not a database"):
        open_services(data_home)


def test_paths_follow_the_override_else_the_platform_dirs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MEMORYRUSH_HOME", str(tmp_path / "h"))
    assert paths.database_path() == tmp_path / "h" / "memoryrush.sqlite3"
    assert paths.config_path() == tmp_path / "h" / "config.toml"
    assert paths.lock_path().parent == paths.backups_dir().parent == tmp_path / "h"
    monkeypatch.setenv("MEMORYRUSH_HOME", "  ")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    assert paths.data_dir() == tmp_path / "xdg-data" / "memoryrush"
    assert paths.config_path() == tmp_path / "xdg-config" / "memoryrush" / "config.toml"


def test_opening_for_reading_never_waits_for_a_writer(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`list` beside an import in progress: an up-to-date library is opened without taking the
    write lock, and the reader sees the last committed state."""
    from core.services.bootstrap import open_services

    svc = open_services(data_home)
    svc.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="placeholder")
    svc.close()
    writer = sqlite3.connect(data_home / "memoryrush.sqlite3", isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE article SET title = 'uncommitted'")
        monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "100")
        reader = open_services(data_home, exclusive=False)
        try:
            assert [a.title for a in reader.library.articles()] == [
                "Photosynthesis: how plants store sunlight"
            ]
        finally:
            reader.close()
    finally:
        writer.execute("ROLLBACK")
        writer.close()
