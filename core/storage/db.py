"""The SQLite database: deferred peewee database, pragmas, schema version, migrations.

One file, WAL, foreign keys on, busy timeout. `PRAGMA user_version` records the schema
version; older databases are migrated in one transaction after a backup copy, newer ones are
refused. Table modules register their models with `register_models`; other schema pieces
(FTS) register a `SchemaHook`. A library that needs nothing done is opened by the first read
instead, when it imports this module (core/storage/fast_open.py: the app's cold start).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import peewee

from core.domain.errors import StorageError
from core.storage import fast_open, wal
from core.storage.errors import SQLITE_ERRORS, root_cause, translate
from core.storage.layout import SCHEMA_VERSION as SCHEMA_VERSION  # (imported from here too)
from core.storage.layout import writable

db = peewee.SqliteDatabase(None)


class BaseModel(peewee.Model):
    # peewee adds the `id` primary key at class creation; declared here for the type checker.
    id: Any

    class Meta:
        database = db
        legacy_table_names = False


_MODELS: list[type[BaseModel]] = []
SchemaHook = Callable[[peewee.SqliteDatabase], None]
_HOOKS: list[SchemaHook] = []
_HOOK_NAMES: set[str] = set()  # what the hooks create (tables, triggers): checked at every open
# version -> the step that brings a database from version-1 to version. Steps run in order, all
# in one transaction after a backup copy; bump SCHEMA_VERSION with every step added.
MIGRATIONS: dict[int, Callable[[peewee.SqliteDatabase], None]] = {}


def register_models(*models: type[BaseModel]) -> None:
    for m in models:
        if m not in _MODELS:
            _MODELS.append(m)


# The table modules in the order their models are listed (and loaded from a dump): parents
# before the rows pointing at them, the same order whichever module a process imported first.
_MODULE_ORDER = ("core.storage.models", "core.storage.browse.models", "core.storage.review.models")


def registered_models() -> list[type[BaseModel]]:
    """Every table model registered so far: by module in _MODULE_ORDER, then in registration
    order (core.storage.schema loads every table module first)."""
    rank = {name: i for i, name in enumerate(_MODULE_ORDER)}
    return sorted(_MODELS, key=lambda m: rank.get(m.__module__, len(rank)))


def register_schema_hook(hook: SchemaHook, *, creates: tuple[str, ...]) -> None:
    """`hook` creates schema pieces outside the models (IF NOT EXISTS); `creates` names them, so
    an open can tell that nothing is missing without running it."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)
    _HOOK_NAMES.update(creates)


def busy_timeout_ms() -> int:
    """How long a write waits for another process's lock: 5000 ms, or $MEMORYRUSH_BUSY_TIMEOUT_MS
    (the fault tests shorten it so a locked database is reported quickly)."""
    try:
        return max(0, int(os.environ.get("MEMORYRUSH_BUSY_TIMEOUT_MS", "5000")))
    except ValueError:
        return 5000


def open_file(path: Path, *, backups: Path | None = None) -> peewee.SqliteDatabase:
    """Open (creating or migrating) the database file and bind the registered models to it
    (core.storage.schema.open_database registers every table first: open through it).

    A database written by a newer MemoryRush is refused before anything touches the file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not db.is_closed():
        db.close()
    _refuse_newer(path)
    if not writable(path):
        return _open_read_only(path)
    _bind(path)
    try:
        db.connect(reuse_if_open=True)
        _ensure_schema(path, backups or path.parent / "backups")
    except peewee.DatabaseError as exc:
        db.close()
        raise translate(exc) from exc
    except BaseException:
        db.close()
        raise
    return db


_WAL = {"wal_autocheckpoint": 0, "journal_size_limit": wal.limit_bytes()}
_PRAGMAS = {"foreign_keys": 1, "cache_size": -64000, "temp_store": "memory"}


def _bind(path: Path) -> None:
    """Point the database at a writable file (connections are made by the first query of
    each thread)."""
    db.init(
        str(path),
        # wal_autocheckpoint 0: a commit does not copy the WAL back itself; a thread does, after
        # it (core/storage/wal.py: 9-11 ms of an answer's commit every ~46 answers before)
        pragmas={"journal_mode": "wal", "synchronous": "normal", **_WAL, **_PRAGMAS},
        timeout=busy_timeout_ms() // 1000,  # the busy_timeout pragma is the precise one
        check_same_thread=False,
    )


# How a file is opened for reading only: plain, then immutable when SQLite cannot make the WAL
# index beside it (a read-only folder); see _open_read_only.
_READ_ONLY_FLAGS = ("mode=ro", "mode=ro&immutable=1")


def _cannot_read_wal(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "unable to open" in text or "readonly" in text


def _open_read_only(path: Path) -> peewee.SqliteDatabase:
    """A library in a folder this process cannot write: opened for reading (`list`, `show`,
    `search`, `stats` work); a write says the folder is read-only. SQLite needs the WAL index
    file beside the database: when it cannot be made here, the file is read as immutable
    (nobody can write it there either)."""
    if not path.exists():
        raise StorageError(
            f"there is no library in {path.parent} and the folder cannot be written; "
            "check its permissions, or use another --data-dir"
        )
    pragmas = {**_PRAGMAS, "busy_timeout": busy_timeout_ms(), "query_only": 1}
    for flags in _READ_ONLY_FLAGS:
        db.init(f"{path.resolve().as_uri()}?{flags}", uri=True, pragmas=pragmas, check_same_thread=False)
        try:
            db.connect(reuse_if_open=True)
            version = db.execute_sql("PRAGMA user_version").fetchone()[0]
        except peewee.DatabaseError as exc:
            db.close()
            if _cannot_read_wal(exc) and flags != _READ_ONLY_FLAGS[-1]:
                continue
            raise translate(exc) from exc
        if version == SCHEMA_VERSION and _schema_complete():
            return db
        db.close()
        break
    raise StorageError(
        f"{path} needs an upgrade (or repair) before it can be read, and {path.parent} cannot be "
        "written; open it once where it can be written"
    )


def schema_version(path: Path) -> int | None:
    """The schema version recorded in a database file (None when there is no file yet)."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    for flags in _READ_ONLY_FLAGS:
        try:
            con = sqlite3.connect(f"{path.resolve().as_uri()}?{flags}", uri=True, timeout=5)
            try:
                return int(con.execute("PRAGMA user_version").fetchone()[0])
            finally:
                con.close()
        except sqlite3.DatabaseError as exc:
            if not (_cannot_read_wal(exc) and flags != _READ_ONLY_FLAGS[-1]):
                raise translate(exc) from exc
    return None  # (not reached: the last attempt returns or raises)


def _refuse_newer(path: Path) -> None:
    version = schema_version(path)
    if version is not None and version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} was written by a newer MemoryRush (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade MemoryRush, nothing was changed"
        )


def _ensure_schema(path: Path, backups: Path) -> None:
    version = db.execute_sql("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:  # written between the check above and now
        _refuse_newer(path)
    has_tables = bool(db.execute_sql("SELECT 1 FROM sqlite_master WHERE type='table' LIMIT 1").fetchone())
    if has_tables and version < SCHEMA_VERSION:
        _migrate(path, backups, version)
        return
    if version == SCHEMA_VERSION:
        if _schema_complete():  # the usual open: one read of sqlite_master, no DDL (start-up time)
            return
        # Something is missing (a piece added since the file was made, or dropped by hand).
        # CREATE ... IF NOT EXISTS takes no write lock when nothing is missing, so opening for
        # `list` never waits behind an import running elsewhere.
        with db.atomic():
            _create_all()
        return
    with db.atomic("IMMEDIATE"):  # a new, empty file
        _create_all()
        db.execute_sql(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")


def _migrate(path: Path, backups: Path, version: int) -> None:
    """Bring an older database up to SCHEMA_VERSION: a backup copy first, then every step in
    one IMMEDIATE transaction (all or nothing, the version bump included)."""
    backup = backup_database(path, backups, f"v{version}-before-v{SCHEMA_VERSION}")
    try:
        with db.atomic("IMMEDIATE"):
            for target in range(version + 1, SCHEMA_VERSION + 1):
                step = MIGRATIONS.get(target)
                if step is not None:
                    step(db)
            _create_all()
            db.execute_sql(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")
    except Exception as exc:
        raise StorageError(
            f"could not upgrade {path} from schema {version} to {SCHEMA_VERSION} ({exc}); "
            f"nothing was changed, and a copy is in {backup}"
        ) from exc
    _wrote()  # after the commit: a failed copy here must not say the upgrade failed


def _expected_names() -> set[str]:
    """Every table and index of the registered models, and what the schema hooks create."""
    names = set(_HOOK_NAMES)
    for model in _MODELS:
        names.add(model._meta.table_name)
        names.update(index._name for index in model._meta.fields_to_index())
    return names


def _schema_complete() -> bool:
    present = {row[0] for row in db.execute_sql("SELECT name FROM sqlite_master")}
    return _expected_names() <= present


def _create_all() -> None:
    db.create_tables(_MODELS, safe=True)
    for hook in _HOOKS:
        hook(db)


def backup_database(path: Path, backups: Path, label: str) -> Path:
    """Consistent copy via SQLite's backup API (safe with WAL). Never overwrites a backup."""
    backups.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = backups / f"{path.stem}-{label}-{stamp}.sqlite3"
    n = 1
    while target.exists():
        n += 1
        target = backups / f"{path.stem}-{label}-{stamp}-{n}.sqlite3"
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


@contextmanager
def write_transaction(*, wait: bool = True) -> Iterator[None]:
    """One IMMEDIATE transaction; SQLite errors become StorageError with nothing half-written.

    wait=False: when another connection holds the write lock, fail at once with DatabaseBusy
    instead of waiting up to the busy timeout (the BEGIN only: once begun, the timeout is the
    usual one). For a caller with a slower path that may wait, off the UI thread."""
    try:
        if wait:
            with db.atomic("IMMEDIATE"):
                yield
            _wrote()
            return
        db.execute_sql("PRAGMA busy_timeout = 0")
        restored = False
        try:
            with db.atomic("IMMEDIATE"):
                db.execute_sql(f"PRAGMA busy_timeout = {int(busy_timeout_ms())}")
                restored = True
                yield
        finally:
            if not restored:
                db.execute_sql(f"PRAGMA busy_timeout = {int(busy_timeout_ms())}")
        _wrote()
    except SQLITE_ERRORS as exc:
        cause = root_cause(exc)
        raise translate(cause) from cause


def _wrote() -> None:
    """A write committed: its WAL pages are copied back by the checkpoint thread, soon; or here
    and now when the WAL has grown past its limit (writes faster than the thread copies). Not
    inside an outer transaction (a nested write_transaction is a savepoint: a checkpoint there
    fails, "table is locked", and would roll the outer one back), and not after a bulk write
    (`wal.in_background()`: checkpoint_after hands its large WAL to the thread at once)."""
    if db.in_transaction():
        return
    path, bulk = str(db.database), wal.backgrounded()
    if wal.over_limit(path) and not bulk:
        db.execute_sql("PRAGMA wal_checkpoint(PASSIVE)")
        return
    wal.wrote(path, busy_timeout_ms() / 1000, now=bulk)


@contextmanager
def discarded() -> Iterator[None]:
    """A transaction that is always rolled back: for a read that must first apply a routine
    pending write to be right (lifting burials that have ended before counting today's session),
    leaving the file as it was. SQLite errors become StorageError."""
    try:
        with db.atomic() as txn:
            yield
            txn.rollback()
    except SQLITE_ERRORS as exc:
        cause = root_cause(exc)
        raise translate(cause) from cause


@contextmanager
def reading() -> Iterator[None]:
    """A read outside a write transaction; SQLite errors (busy, damaged) become StorageError."""
    try:
        yield
    except SQLITE_ERRORS as exc:
        raise translate(exc) from exc


# A library open_services found ready without peewee (core/storage/fast_open.py) is bound here,
# by the first read that imports this module: before it, nothing could have used the database.
if (_checked := fast_open.take()) is not None:
    _bind(_checked)
