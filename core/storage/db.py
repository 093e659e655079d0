"""The SQLite database: deferred peewee database, pragmas, schema version, migrations.

One file, WAL, foreign keys on, busy timeout. `PRAGMA user_version` records the schema
version; older databases are migrated in one transaction after a backup copy, newer ones are
refused. Table modules register their models with `register_models`; other schema pieces
(FTS) register a `SchemaHook`.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee

from core.errors import DatabaseBusy, DiskFull, StorageError

SCHEMA_VERSION = 1

db = peewee.SqliteDatabase(None)


class BaseModel(peewee.Model):
    class Meta:
        database = db
        legacy_table_names = False


_MODELS: list[type[BaseModel]] = []
SchemaHook = Callable[[peewee.SqliteDatabase], None]
_HOOKS: list[SchemaHook] = []
# version -> migration that brings a database from version-1 to version (runs in a transaction)
MIGRATIONS: dict[int, Callable[[peewee.SqliteDatabase], None]] = {}


def register_models(*models: type[BaseModel]) -> None:
    for m in models:
        if m not in _MODELS:
            _MODELS.append(m)


def register_schema_hook(hook: SchemaHook) -> None:
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def _load_table_modules() -> None:
    # Importing these registers their models/hooks.
    from core.storage import models, review_models, search_index  # noqa: F401


def open_database(path: Path, *, backups: Path | None = None) -> peewee.SqliteDatabase:
    """Open (creating or migrating) the database file and bind the models to it."""
    _load_table_modules()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not db.is_closed():
        db.close()
    db.init(
        str(path),
        pragmas={
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 5000,
            "synchronous": "normal",
            "cache_size": -64000,
            "temp_store": "memory",
        },
        timeout=5,
        check_same_thread=False,
    )
    try:
        db.connect(reuse_if_open=True)
        _ensure_schema(path, backups or path.parent / "backups")
    except peewee.DatabaseError as exc:
        db.close()
        raise translate(exc) from exc
    return db


def _ensure_schema(path: Path, backups: Path) -> None:
    version = db.execute_sql("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} was written by a newer MemoryRush (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade MemoryRush, nothing was changed"
        )
    has_tables = bool(
        db.execute_sql("SELECT 1 FROM sqlite_master WHERE type='table' LIMIT 1").fetchone()
    )
    if has_tables and version < SCHEMA_VERSION:
        backup_database(path, backups, f"before-v{SCHEMA_VERSION}")
        with db.atomic("IMMEDIATE"):
            for target in range(version + 1, SCHEMA_VERSION + 1):
                step = MIGRATIONS.get(target)
                if step is not None:
                    step(db)
            _create_all()
            db.execute_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    with db.atomic("IMMEDIATE"):
        _create_all()
        db.execute_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _create_all() -> None:
    db.create_tables(_MODELS, safe=True)
    for hook in _HOOKS:
        hook(db)


def backup_database(path: Path, backups: Path, label: str) -> Path:
    """Consistent copy via SQLite's backup API (safe with WAL)."""
    backups.mkdir(parents=True, exist_ok=True)
    target = backups / f"{path.stem}-{label}-{int(time.time())}.sqlite3"
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return target


def copy_file(src: Path, dst: Path) -> None:
    shutil.copy2(src, dst)


def translate(exc: BaseException) -> StorageError:
    """Turn a SQLite error into a message a person can act on."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return DatabaseBusy(
            "the database is busy (locked by another process); nothing was saved, try again"
        )
    if "full" in text:
        return DiskFull("disk full, nothing saved; free some space and try again")
    if "not a database" in text or "malformed" in text:
        return StorageError(f"the database file is damaged ({exc}); restore one from backups/")
    return StorageError(f"database error: {exc}")


@contextmanager
def write_transaction() -> Iterator[None]:
    """One IMMEDIATE transaction; SQLite errors become StorageError with nothing half-written."""
    try:
        with db.atomic("IMMEDIATE"):
            yield
    except (peewee.OperationalError, peewee.DatabaseError, sqlite3.OperationalError) as exc:
        raise translate(exc) from exc


def now_epoch() -> int:
    return int(time.time())
