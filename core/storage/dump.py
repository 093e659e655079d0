"""The whole library as tables of rows, out and back in: what `export json` and `import-library` move.

Every table that holds something a person made or did is dumped, row for row, under its own
column names: the registered models (in registration order, which is foreign-key order) and the
data tables schema hooks create (`DATA_TABLES`). Tables that are computed from those are not
dumped but rebuilt after a load (`DERIVED_TABLES`: the search index, its counters, the cards-due
counter kept by triggers). A test fails when a table is neither, so a new table must be sorted
into one or the other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import peewee

from core.domain.errors import StorageError
from core.storage import journal as undo_journal
from core.storage.db import db, reading, write_transaction
from core.storage.errors import root_cause, translate, translated
from core.storage.fields import UNTRUSTED, gate
from core.storage.schema import registered_models
from core.storage.search import index as search_index

DATA_TABLES = ("search_feedback",)  # hook-made tables holding the reader's own doings
# Rebuilt from the dumped tables (FTS5 shadow tables too: anything named search_para_* etc.)
DERIVED_TABLES = (
    "review_due_day",
    "search_stats",
    "search_words",
    "search_tokens",
    "search_para",
    "search_unit",
    "search_para_vocab",
)
BATCH = 5000


@dataclass(frozen=True, slots=True)
class TableRows:
    """One table as a file carries it: column names and rows of values in that order."""

    columns: tuple[str, ...]
    rows: list[list[Any]]


@translated
def dumped_tables() -> list[str]:
    """Tables in load order: parents before the rows that point at them."""
    return [m._meta.table_name for m in registered_models()] + list(DATA_TABLES)


@translated
def is_derived(name: str) -> bool:
    return any(name == d or name.startswith(f"{d}_") for d in DERIVED_TABLES)


@translated
def all_tables() -> list[str]:
    with reading():
        return [
            str(r[0])
            for r in db.execute_sql(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]


@translated
def columns(table: str) -> list[str]:
    with reading():
        return [str(r[1]) for r in db.execute_sql(f'PRAGMA table_info("{table}")')]


def _order(table: str) -> str:
    with reading():
        info = list(db.execute_sql(f'PRAGMA table_info("{table}")'))
    keys = [str(r[1]) for r in sorted((r for r in info if r[5]), key=lambda r: r[5])]
    return ", ".join(f'"{k}"' for k in keys) or "rowid"


@translated
def count_rows(table: str) -> int:
    with reading():
        return int(db.execute_sql(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])


@translated
def iter_rows(table: str, batch: int = BATCH) -> Iterator[list[tuple[Any, ...]]]:
    """A table's rows (columns in `columns(table)` order) by primary key, `batch` at a time, all
    from one read transaction: a consistent snapshot even while the app writes."""
    names = ", ".join(f'"{c}"' for c in columns(table))
    with reading():
        cursor = db.execute_sql(f'SELECT {names} FROM "{table}" ORDER BY {_order(table)}')
        while rows := cursor.fetchmany(batch):
            yield rows


@contextmanager
@translated
def snapshot() -> Iterator[None]:
    """One read transaction: every read inside sees the library as it was at its first read,
    whatever other connections commit meanwhile (WAL: they are not blocked)."""
    with reading(), db.atomic():
        yield


@translated
def is_empty() -> bool:
    """No row in any dumped table (a new library: nothing to lose by loading into it)."""
    with reading():
        return not any(db.execute_sql(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() for t in dumped_tables())


@translated
def nonempty_counts() -> dict[str, int]:
    return {t: n for t in dumped_tables() if (n := count_rows(t))}


@translated
def load(tables: Mapping[str, TableRows], progress: Any = None) -> dict[str, int]:
    """Insert every table's rows (ids kept) and rebuild the derived tables, in ONE transaction.

    Raises StorageError naming the table and row when a row breaks the schema; nothing is
    written then. `progress(table, rows_done, rows_total)` after each table.
    """
    total = sum(len(t.rows) for t in tables.values())
    done = 0
    loaded: dict[str, int] = {}
    with write_transaction():
        con = db.connection()
        for table in dumped_tables():
            given = tables.get(table)
            rows = given.rows if given is not None else []
            if given is not None and rows:
                _insert(con, table, given)
            loaded[table] = len(rows)
            done += len(rows)
            if progress is not None:
                progress(table, done, total)
        undo_journal.adopt(db)  # a file from before schema 12: its pending undos get their entries
        search_index.rebuild()
    return loaded


def _gated(table: str, given: TableRows) -> list[list[Any]]:
    """The file's rows with its outside text (a unit's content, questions, tags, a title ...)
    through the store gate, as every other write of those columns (core/storage/fields.py): a
    library file is input like any other."""
    model = next((m for m in registered_models() if m._meta.table_name == table), None)
    if model is None:
        return given.rows
    by_column = {f.column_name: f for f in model._meta.sorted_fields}
    at = [(i, by_column[c]) for i, c in enumerate(given.columns) if isinstance(by_column.get(c), UNTRUSTED)]
    if not at:
        return given.rows
    out = []
    for row in given.rows:
        row = list(row)
        for i, field in at:
            if isinstance(row[i], str):  # a value of another type is the schema's to refuse
                row[i] = gate(field, row[i])
        out.append(row)
    return out


def _insert(con: sqlite3.Connection, table: str, given: TableRows) -> None:
    known = columns(table)
    unknown = sorted(set(given.columns) - set(known))
    if unknown:
        raise StorageError(f"{table}: unknown columns {', '.join(unknown)} (a newer MemoryRush wrote this?)")
    # a column the file lacks (an older MemoryRush) takes its SQL default
    listed = ", ".join(f'"{c}"' for c in given.columns)
    sql = f'INSERT INTO "{table}" ({listed}) VALUES ({", ".join("?" * len(given.columns))})'
    rows = _gated(table, given)
    for start in range(0, len(rows), BATCH):
        chunk = rows[start : start + BATCH]
        try:
            con.executemany(sql, chunk)
        except (sqlite3.Error, peewee.DatabaseError) as exc:
            cause = root_cause(exc)
            if isinstance(cause, sqlite3.IntegrityError | sqlite3.InterfaceError | sqlite3.ProgrammingError):
                raise StorageError(
                    f"{table}: rows {start + 1}-{start + len(chunk)} break the library's rules ({cause}); "
                    "nothing was loaded"
                ) from cause
            raise translate(cause) from cause
