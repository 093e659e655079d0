"""Library files: a consistent copy of the live database, checking a file, restoring one.

The copy uses SQLite's online backup API from a connection that holds one read transaction for
the whole copy: in WAL mode the copy is the library as it was when it started, page for page,
while the app goes on writing (its commits land in the WAL; nothing waits for the copy). It is
done in steps, so there is progress to show, and each step's pages are flushed to the disk
before the next (fdatasync): the copy never holds much unwritten data. Written at full speed and
synced once at the end, a 1.2 GB copy left the disk a gigabyte to write at once, and any fsync
meanwhile waited for it: the app's answer that started the WAL again after the copy (SQLite
syncs the WAL header then) took 195 ms (bench/bench_tui.py --only backup).

Restoring copies a checked file *into* the live database with the same API: the destination is
written in one transaction, so a crash in the middle leaves the library as it was (SQLite rolls
the unfinished transaction back), and a reader never sees half of each.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from core.domain.errors import StorageError
from core.domain.export import FileCheck
from core.storage.db import SCHEMA_VERSION, busy_timeout_ms
from core.storage.errors import translate, translated

Progress = Callable[[int, int], None]  # pages done, pages in all
STEP_PAGES = (
    1024  # 4 MB a step at 4 KB pages, flushed before the next: an fsync elsewhere waits for one at most
)
_FLUSH = getattr(os, "fdatasync", os.fsync)  # (macOS has no fdatasync)
HEADER = b"SQLite format 3\x00"
# A library has at least these tables (a backup of something else is refused)
REQUIRED_TABLES = ("article", "paragraph", "unit", "evidence", "question")


@translated
def copy_database(source: Path, target: Path, progress: Progress | None = None) -> None:
    """Copy the database at `source` into the new file `target` (consistent, online)."""
    try:
        src = sqlite3.connect(
            f"{source.resolve().as_uri()}?mode=ro",
            uri=True,
            isolation_level=None,
            timeout=busy_timeout_ms() / 1000,
        )
        try:
            src.execute("BEGIN")
            src.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the snapshot starts here
            dst = sqlite3.connect(str(target))
            # a new file, renamed into place only once complete and synced (services.export.files):
            # no journal, and SQLite's syncs off (40% less CPU for a 900 MB library); each step's
            # pages are flushed here instead, through a descriptor of our own (see the docstring)
            dst.execute("PRAGMA journal_mode = OFF")
            dst.execute("PRAGMA synchronous = OFF")
            written = os.open(target, os.O_RDWR)
            try:

                def step(_status: int, remaining: int, total: int) -> None:
                    _FLUSH(written)
                    if progress is not None:
                        progress(total - remaining, total)

                src.backup(dst, pages=STEP_PAGES, progress=step)
            finally:
                os.close(written)
                dst.close()
            src.execute("COMMIT")
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise translate(exc) from exc


@translated
def check_file(path: Path, *, thorough: bool = True) -> FileCheck:
    """A usable library file, or StorageError saying why not (missing, not SQLite, damaged,
    not a MemoryRush library, written by a newer MemoryRush)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(len(HEADER))
    except FileNotFoundError:
        raise StorageError(f"{path}: no such file") from None
    except OSError as exc:
        raise StorageError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if head != HEADER:
        raise StorageError(f"{path}: not an SQLite database (is it a JSON export? use import-library)")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            verdict = con.execute("PRAGMA integrity_check" if thorough else "PRAGMA quick_check").fetchone()[
                0
            ]
            if verdict != "ok":
                raise StorageError(
                    f"{path} is damaged ({verdict}); choose another backup, nothing was changed"
                )
            version = int(con.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [t for t in REQUIRED_TABLES if t not in tables]
            if missing:
                raise StorageError(f"{path} is not a MemoryRush library (no {', '.join(missing)} table)")
            articles = int(con.execute("SELECT COUNT(*) FROM article").fetchone()[0])
            cards = int(con.execute("SELECT COUNT(*) FROM card").fetchone()[0]) if "card" in tables else 0
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path} is damaged or not a database ({exc}); nothing was changed") from exc
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} was written by a newer MemoryRush (schema {version}, this one knows {SCHEMA_VERSION}); "
            "upgrade MemoryRush to restore it, nothing was changed"
        )
    return FileCheck(path, version, size, articles, cards)


@translated
def restore_into(source: Path, live: Path) -> None:
    """Replace the live database's content with `source`'s: one backup step, one transaction on
    `live`. No other connection of this process may be open on `live` (close the library first)."""
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(str(live), timeout=busy_timeout_ms() / 1000)
            try:
                src.backup(dst, pages=-1)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise translate(exc) from exc


def _normal(sql: str | None) -> str:
    return " ".join((sql or "").split())


# SQLite's own tables, as SQLite makes them (AUTOINCREMENT, ANALYZE): rows, never code.
_SQLITE_TABLES = {
    "sqlite_sequence": "CREATE TABLE sqlite_sequence(name,seq)",
    "sqlite_stat1": "CREATE TABLE sqlite_stat1(tbl,idx,stat)",
    "sqlite_stat4": "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)",
}


def _without_comments(sql: str) -> str:
    """The SQL with its comments (-- to the line's end, /* ... */) each one space, quoted text
    ('...', "...", `...`, [...]) kept whole: a comment may stand anywhere a space may
    ("CHECK/**/(reps < 1)")."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        close = {"'": "'", '"': '"', "`": "`", "[": "]"}.get(ch)
        if close is not None:
            end = sql.find(close, i + 1)
            end = n if end < 0 else end + 1
            out.append(sql[i:end])
            i = end
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end < 0 else end
            out.append(" ")
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _definition(sql: str) -> tuple[list[str], str]:
    """A CREATE TABLE as the sorted list of what its parentheses hold (each column with its
    constraints, each table constraint: comments out, spacing folded) and what follows them
    (WITHOUT ROWID, STRICT). Sorted: ALTER TABLE ... ADD COLUMN in a migration puts a column
    after the table's constraints, a new library's CREATE among the columns. Every word counts,
    so a CHECK, COLLATE, ON CONFLICT, DEFERRABLE or action of the backup's own changes it."""
    text = _without_comments(sql)
    opened, closed = text.find("("), text.rfind(")")
    if opened < 0 or closed < opened:
        return [" ".join(text.split())], ""
    items, depth, quote, start = [], 0, "", opened + 1
    for i in range(opened + 1, closed):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"`":
            quote = ch
        elif ch == "[":
            quote = "]"
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:closed])
    kept = []
    for item in items:
        item = _REFERENCES.sub("", _IDENTIFIER.sub(r"\1", " ".join(item.split()))).strip()
        if not _BARE_FOREIGN_KEY.fullmatch(item):
            kept.append(item)
    return sorted(kept), " ".join(text[closed + 1 :].split())


# A foreign key's target and actions, compared by PRAGMA foreign_key_list instead: a migration
# added "deck_id INTEGER REFERENCES article (id) ON DELETE SET NULL" where a new library has the
# column and a table constraint "FOREIGN KEY (deck_id) REFERENCES ..." (anything else in the
# clause, DEFERRABLE too, stays in the item and is compared)
_REFERENCES = re.compile(
    r"\s*\bREFERENCES\s+[A-Za-z_][A-Za-z0-9_]*\s*\([^)]*\)"
    r"(?:\s+ON\s+(?:DELETE|UPDATE)\s+(?:SET\s+NULL|SET\s+DEFAULT|CASCADE|RESTRICT|NO\s+ACTION))*",
    re.IGNORECASE,
)
_BARE_FOREIGN_KEY = re.compile(r"FOREIGN KEY\s*\([^)]*\)", re.IGNORECASE)


# A quoted plain identifier: "after" and after are one name (ALTER TABLE wrote them unquoted)
_IDENTIFIER = re.compile(r'["`\[]([A-Za-z_][A-Za-z0-9_]*)["`\]]')


def _table(con: sqlite3.Connection, name: str, sql: str | None) -> str:
    """What a table is: its columns (types, defaults, keys, hidden or generated kinds), foreign
    keys with their actions, indexes (unique or not, partial or not, columns with collations:
    a UNIQUE or PRIMARY KEY makes one), and its definition's every item (`_definition`)."""
    quoted = '"' + name.replace('"', '""') + '"'
    columns = sorted((tuple(c[1:]) for c in con.execute(f"PRAGMA table_xinfo({quoted})")), key=repr)
    keys = sorted((tuple(k[2:]) for k in con.execute(f"PRAGMA foreign_key_list({quoted})")), key=repr)
    indexes = []
    for _, index, unique, origin, partial in con.execute(f"PRAGMA index_list({quoted})").fetchall():
        index_q = '"' + index.replace('"', '""') + '"'
        parts = [tuple(c[2:]) for c in con.execute(f"PRAGMA index_xinfo({index_q})") if c[5]]
        indexes.append((unique, origin, partial, parts))
    return repr((columns, keys, sorted(indexes, key=repr), _definition(sql or "")))


def _schema(path: Path) -> dict[tuple[str, str], str]:
    """(type, name) -> what the object is: SQL for indexes, triggers, views and virtual tables,
    `_table` for tables. A table's SQL text is not compared whole: ALTER TABLE ... ADD COLUMN in
    a migration writes it differently from the CREATE of a new library, for the same columns.
    Names starting "sqlite_" are compared too (a trigger can be written into sqlite_master under
    such a name, PRAGMA writable_schema); only SQLite's own tables as SQLite makes them, and the
    automatic indexes of UNIQUE and PRIMARY KEY (part of their table's `_table`), are left out."""
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found: dict[tuple[str, str], str] = {}
        for kind, name, sql in con.execute("SELECT type, name, sql FROM sqlite_master").fetchall():
            if kind == "table" and _normal(_SQLITE_TABLES.get(name)) == _normal(sql) != "":
                continue
            if kind == "index" and sql is None and name.startswith("sqlite_autoindex_"):
                continue
            if kind == "table" and not _normal(sql).upper().startswith("CREATE VIRTUAL TABLE"):
                found[(kind, name)] = _table(con, name, sql)
            else:
                found[(kind, name)] = _normal(sql)
        return found
    finally:
        con.close()


@translated
def foreign_objects(candidate: Path, reference: Path) -> list[str]:
    """The schema objects of `candidate` that a library of this MemoryRush (`reference`, at the
    same schema version) does not have as they are: a trigger, view, index or table added, or one
    of ours whose definition was changed. Each as "trigger name". A restored file must have none:
    a trigger planted in a backup would fire on the reader's next action."""
    try:
        ours, theirs = _schema(reference), _schema(candidate)
        settings = _index_settings(candidate, reference, ours)
    except sqlite3.Error as exc:
        raise translate(exc) from exc
    changed = [f"{kind} {name}" for (kind, name), what in theirs.items() if ours.get((kind, name)) != what]
    return sorted(changed + settings)


# What an FTS5 table's _config may hold besides its format version (settings, no code)
_FTS_OPTIONS = frozenset({"hashsize", "automerge", "crisismerge", "usermerge", "pgsz", "deletemerge"})


def _index_settings(candidate: Path, reference: Path, ours_schema: dict[tuple[str, str], str]) -> list[str]:
    """The search index's settings that this MemoryRush would not read: a format version other
    than a new library's (re-attack: a backup saying 99 was restored, and every search then
    failed with FTS5's "run 'rebuild'", a command the reader does not have) or an option it
    does not set. Each as "index setting table.key". `ours_schema`: the reference's `_schema`."""
    tables = [  # FTS5's shadow tables of our virtual tables
        name
        for (kind, name) in ours_schema
        if kind == "table"
        and name.endswith("_config")
        and ours_schema.get(("table", name.removesuffix("_config")), "")
        .upper()
        .startswith("CREATE VIRTUAL TABLE")
    ]
    out: list[str] = []
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        rows: list[dict[str, object]] = []
        for path in (reference, candidate):
            con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                rows.append(dict(con.execute(f"SELECT k, v FROM {quoted}").fetchall()))
            except sqlite3.Error:
                rows.append({})
            finally:
                con.close()
        ours, theirs = rows
        for key, value in theirs.items():
            if (key == "version" and value != ours.get("version")) or (
                key != "version" and key not in _FTS_OPTIONS
            ):
                out.append(f"index setting {table}.{str(key)[:40]}")
    return out


@translated
def ready_to_restore(path: Path, live: Path) -> None:
    """Leave the file as restore_into copies from it: in rollback-journal mode (its WAL copied
    back and gone) and with the live library's page size (SQLite's backup into a WAL database
    of another page size fails, "attempt to write a readonly database": a library made by an
    older SQLite, or written compactly, has 1 KB pages where today's have 4 KB)."""
    try:
        con = sqlite3.connect(str(live))
        try:
            page_size = int(con.execute("PRAGMA page_size").fetchone()[0])
        finally:
            con.close()
        con = sqlite3.connect(str(path), isolation_level=None)
        try:
            con.execute("PRAGMA journal_mode = DELETE").fetchone()
            if int(con.execute("PRAGMA page_size").fetchone()[0]) != page_size:
                con.execute(f"PRAGMA page_size = {page_size:d}")
                con.execute("VACUUM")
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise translate(exc) from exc
