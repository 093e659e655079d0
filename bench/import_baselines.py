"""The raw sqlite3 baselines bench/bench_import.py measures our import against (its docstring
says what each one is), and the clock both sides are timed with.

Each baseline is one transaction into a fresh file; the rows are computed beforehand, outside
the timing, so the figure is SQLite's own work.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from core.domain import SourceDocument
from core.text.indexing import index_row, index_rows

SHADOW = ("_data", "_idx", "_content", "_docsize", "_config")  # FTS5 makes these itself

Times = tuple[float, float]  # (wall, cpu) seconds
Phases = dict[str, Times]


class Clock:
    """Wall time and this process's CPU time (SQLite runs in-process, so both sides count alike).

    CPU time is printed because the figures are often taken on a busy machine.
    """

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def lap(self) -> Times:
        wall, cpu = time.perf_counter(), time.process_time()
        out = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return out


def fts_configs(source: Path) -> dict[str, list[tuple[str, Any]]]:
    """Each FTS5 table's settings (its _config rows but the version)."""
    src = sqlite3.connect(str(source))
    try:
        fts5 = [
            name
            for name, sql in src.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
            if sql and sql.upper().startswith("CREATE VIRTUAL") and "fts5(" in sql.lower()
        ]
        return {n: src.execute(f"SELECT k, v FROM {n}_config WHERE k != 'version'").fetchall() for n in fts5}
    finally:
        src.close()


def copy_schema(source: Path, con: sqlite3.Connection) -> None:
    """Create in `con` every table and index of `source`, with the same FTS5 settings."""
    src = sqlite3.connect(str(source))
    try:
        objects = src.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
        ).fetchall()
        virtual = [name for kind, name, sql in objects if sql.upper().startswith("CREATE VIRTUAL")]
    finally:
        src.close()
    configs = fts_configs(source)
    for _kind, name, sql in objects:
        if not any(name == v + s for v in virtual for s in SHADOW):
            con.execute(sql)
    for name, rows in configs.items():
        for k, v in rows:
            con.execute(f"INSERT INTO {name}({name}, rank) VALUES (?, ?)", (k, v))


def connect(path: Path, pragmas: dict[str, Any]) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), isolation_level=None)
    for name, value in pragmas.items():
        con.execute(f"PRAGMA {name} = {value}")
    return con


def raw_paragraphs(doc: SourceDocument, db_path: Path, *, indexes: bool) -> Times:
    """The paragraph rows only, into a plain table (optionally with the two unique indexes)."""
    con = connect(db_path, {"journal_mode": "wal", "synchronous": "normal"})
    con.execute(
        "CREATE TABLE paragraph (id INTEGER PRIMARY KEY, article_id INTEGER NOT NULL, "
        "paragraph_id TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL)"
    )
    if indexes:
        con.execute("CREATE UNIQUE INDEX p_pos ON paragraph (article_id, position)")
        con.execute("CREATE UNIQUE INDEX p_pid ON paragraph (article_id, paragraph_id)")
    rows = [(1, p.paragraph_id, p.index, p.kind, p.text) for p in doc.paragraphs]
    clock = Clock()
    con.execute("BEGIN IMMEDIATE")
    con.executemany(
        "INSERT INTO paragraph (article_id, paragraph_id, position, kind, text) VALUES (?, ?, ?, ?, ?)", rows
    )
    con.execute("COMMIT")
    elapsed = clock.lap()
    con.close()
    return elapsed


class SameRows:
    """Every row our import writes, computed beforehand (outside the timing)."""

    def __init__(self, doc: SourceDocument, written: Path) -> None:
        con = sqlite3.connect(str(written))  # the article row exactly as our path wrote it
        cur = con.execute("SELECT * FROM article")
        self.article = cur.fetchone()
        columns = [d[0] for d in cur.description]
        con.close()
        self.article_sql = (
            f"INSERT INTO article ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        )
        self.paragraphs = [(1, p.paragraph_id, p.index, p.kind, p.text) for p in doc.paragraphs]
        analysed = [index_row(p.text) for p in doc.paragraphs]
        # paragraph pks are 1..n in a fresh file (our path gets the same ones)
        self.fts = [(pk, a.words, a.stems, a.trunc) for pk, a in enumerate(analysed, 1)]
        # the vocabulary (search_words / search_tokens), as core.storage.search.index files it
        listed = sorted(w for w in index_rows([p.text for p in doc.paragraphs]).words if len(w) >= 2)
        self.words = [w for w in listed if w.isascii() and w.isalpha()]
        self.tokens = [w for w in listed if not (w.isascii() and w.isalpha())]
        self.stats = [
            ("docs", len(analysed)),
            ("bag", sum(a.bag for a in analysed)),
            ("trunc", sum(a.trunc_count for a in analysed)),
            ("sentences", sum(a.sentences for a in analysed)),
        ]


def raw_same_tables(rows: SameRows, schema_from: Path, pragmas: dict[str, Any], db_path: Path) -> Phases:
    """The rows our import writes, executemany'd into the same tables with the same pragmas."""
    con = connect(db_path, pragmas)
    copy_schema(schema_from, con)
    times: Phases = {}
    clock = Clock()
    con.execute("BEGIN IMMEDIATE")
    con.execute(rows.article_sql, rows.article)
    con.executemany(
        "INSERT INTO paragraph (article_id, paragraph_id, position, kind, text) VALUES (?, ?, ?, ?, ?)",
        rows.paragraphs,
    )
    times["article + paragraph rows (3 indexes)"] = clock.lap()
    con.executemany("INSERT INTO search_para(rowid, words, stems, trunc) VALUES (?, ?, ?, ?)", rows.fts)
    times["search_para rows (unicode61, 3 columns)"] = clock.lap()
    for table, column, words in (
        ("search_words", "word", rows.words),
        ("search_tokens", "token", rows.tokens),
    ):
        con.execute(
            f"INSERT OR IGNORE INTO {table}({column}) SELECT value FROM json_each(?)", (json.dumps(words),)
        )
    times["search_words + search_tokens (vocabulary)"] = clock.lap()
    con.executemany(
        "INSERT INTO search_stats(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
        rows.stats,
    )
    con.execute("COMMIT")
    times["stats + commit"] = clock.lap()
    con.close()
    return times
