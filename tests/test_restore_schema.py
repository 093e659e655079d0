"""A restore (and so a backup file) brings rows, never code (issue 34, item 3).

A backup is copied aside, brought to this schema version there (an older one migrated in the
copy), and compared with a library this MemoryRush makes: a trigger, view, index or table it
does not make, or one of ours whose definition was changed, refuses the file before anything is
touched. Before the rule, a backup with `CREATE TRIGGER ... AFTER UPDATE ON unit BEGIN DELETE
FROM review_log; UPDATE article SET title = 'PWNED'; END` was restored, and the next curation
action fired it. Libraries written by every older release (tests/fixtures/migrations) restore.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from built_libraries import copy_built
from export_support import build_library, table_rows

from core.domain.errors import StorageError
from core.host import paths
from core.host.clock import FixedClock
from core.services import backup
from core.services.bootstrap import Services, open_services
from tests.faults.helpers import run_mr

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "migrations"
PLANTED = {
    "trigger": "CREATE TRIGGER pwn AFTER UPDATE ON unit BEGIN DELETE FROM review_log; "
    "UPDATE article SET title = 'PWNED'; END",
    "view": "CREATE VIEW innocent AS SELECT * FROM card",
    "index": "CREATE INDEX mine ON card (lapses, reps)",
    "table": "CREATE TABLE notes_of_mine (x)",
    # one of ours, its body replaced (the name alone would pass)
    "our trigger changed": "DROP TRIGGER card_due_day_in; CREATE TRIGGER card_due_day_in AFTER UPDATE OF "
    "queue, due ON card BEGIN DELETE FROM review_log; END",
    "our index changed": "DROP INDEX card_queue_due; CREATE INDEX card_queue_due ON card (queue)",
    # written into sqlite_master itself (PRAGMA writable_schema), as the re-attack did: a trigger
    # under a name SQLite keeps for itself, and our tables with a constraint of the backup's own
    "sqlite-named trigger": "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
    "('trigger', 'sqlite_evil', 'review_log', 0, "
    "'CREATE TRIGGER sqlite_evil AFTER INSERT ON review_log BEGIN DELETE FROM card; END')",
    "check added": "UPDATE sqlite_master SET sql = replace(sql, '\"reps\" INTEGER NOT NULL', "
    "'\"reps\" INTEGER NOT NULL CHECK (reps < 1)') WHERE name = 'card'",
    "cascade added": "UPDATE sqlite_master SET sql = replace(sql, 'ON DELETE SET NULL', 'ON DELETE CASCADE') "
    "WHERE name = 'unit'",
    "collate added": "UPDATE sqlite_master SET sql = replace(sql, '\"title\" TEXT NOT NULL', "
    "'\"title\" TEXT NOT NULL COLLATE NOCASE') WHERE name = 'article'",
    # the review of that fix: what no PRAGMA shows, and a comment where a space may stand
    "check behind a comment": "UPDATE sqlite_master SET sql = replace(sql, '\"reps\" INTEGER NOT NULL', "
    "'\"reps\" INTEGER NOT NULL CHECK/**/(reps < 1)') WHERE name = 'card'",
    "on conflict replace": "UPDATE sqlite_master SET sql = replace(sql, '\"id\" INTEGER NOT NULL PRIMARY KEY', "
    "'\"id\" INTEGER NOT NULL PRIMARY KEY ON CONFLICT REPLACE') WHERE name = 'question'",
    "not null on conflict ignore": "UPDATE sqlite_master SET sql = replace(sql, '\"answer\" TEXT NOT NULL', "
    "'\"answer\" TEXT NOT NULL ON CONFLICT IGNORE') WHERE name = 'question'",
    # the second re-attack: data FTS5 reads as its format (search then failed with "run 'rebuild'")
    "index version": "UPDATE search_para_config SET v = 99 WHERE k = 'version'",
    "deferrable added": 'UPDATE sqlite_master SET sql = replace(sql, \'REFERENCES "unit" ("id") ON DELETE CASCADE\', '
    "'REFERENCES \"unit\" (\"id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED') WHERE name = 'question'",
}
IN_SCHEMA = {
    "sqlite-named trigger",
    "check added",
    "cascade added",
    "collate added",
    "check behind a comment",
    "on conflict replace",
    "not null on conflict ignore",
    "deferrable added",
}
# review_log rebuilt with a UNIQUE constraint, whose index SQLite makes and names itself (the
# attack's UNIQUE (card_id) let a card take one answer; this one holds the rows the library has)
PLANTED["unique added"] = "REBUILD review_log UNIQUE (card_id, id)"


def _two_days_of_reviews(home: Path, start: datetime) -> None:
    clock = FixedClock(start)
    services = open_services(home, clock=clock)
    try:
        build_library(services, clock, days=2)
    finally:
        services.close()
    _built_until.append(clock.now())


_built_until: list[datetime] = []  # where the build left its clock (one build per test process)


@pytest.fixture
def library(data_home: Path, clock: FixedClock) -> Iterator[Services]:
    """The export tests' library after two days of reviews: built once per test process and
    copied here (tests/built_libraries.py); opened with the clock where the build left it."""
    start = clock.now()  # the same fixed time in every test
    copy_built("export-two-days", data_home, lambda home: _two_days_of_reviews(home, start))
    clock.set(_built_until[-1])
    services = open_services(data_home, clock=clock)
    try:
        yield services
    finally:
        services.close()


def _planted(saved: Path, tmp_path: Path, name: str, sql: str) -> Path:
    target = tmp_path / f"{name.replace(' ', '_')}.sqlite3"
    shutil.copy(saved, target)
    con = sqlite3.connect(target, isolation_level=None)
    if name in IN_SCHEMA:
        con.execute("PRAGMA writable_schema = ON")
        changed = con.execute(sql).rowcount
        assert changed == 1, (name, changed)  # the replace found its text
        con.execute("PRAGMA writable_schema = OFF")
        version = con.execute("PRAGMA schema_version").fetchone()[0]
        con.execute(f"PRAGMA schema_version = {version + 1}")
    elif sql.startswith("REBUILD "):
        table, constraint = sql.removeprefix("REBUILD ").split(" ", 1)
        made = con.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        indexes = [
            r[0]
            for r in con.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type = 'index' AND sql IS NOT NULL",
                (table,),
            )
        ]
        con.executescript(
            f"PRAGMA foreign_keys = OFF; ALTER TABLE {table} RENAME TO old_rows; "
            f"{made.rstrip().removesuffix(')')}, {constraint}); INSERT INTO {table} SELECT * FROM old_rows; "
            f"DROP TABLE old_rows; {'; '.join(indexes)};"
        )
    else:
        con.executescript(sql)
    con.close()
    return target


@pytest.mark.parametrize("what", sorted(PLANTED))
def test_a_backup_carrying_schema_objects_of_its_own_is_refused(
    library: Services, tmp_path: Path, what: str
) -> None:
    saved = backup.backup_now(library.config, tmp_path / "saved.sqlite3").path
    hostile = _planted(saved, tmp_path, what, PLANTED[what])
    live = table_rows(paths.database_path())
    with pytest.raises(StorageError, match="schema objects this MemoryRush does not make"):
        backup.restore(library.config, hostile)
    assert table_rows(paths.database_path()) == live
    assert not [b for b in backup.list_backups(library.config) if b.kind == "before-restore"]
    # the library is open and its own actions fire nothing foreign
    unit = library.library.articles()[0]
    assert library.curation.accept_all_valid(unit.id) >= 0
    names = {r[0] for r in sqlite3.connect(paths.database_path()).execute("SELECT name FROM sqlite_master")}
    assert not {"pwn", "innocent", "mine", "notes_of_mine", "sqlite_evil"} & names


def test_the_attacks_trigger_through_the_real_command(library: Services, tmp_path: Path) -> None:
    saved = backup.backup_now(library.config, tmp_path / "saved.sqlite3").path
    hostile = _planted(saved, tmp_path, "trigger", PLANTED["trigger"])
    library.close()
    result = run_mr(paths.data_dir(), "restore", str(hostile), "--yes")
    assert result.returncode != 0 and "trigger pwn" in result.stderr, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("version", [1, 3, 4, 5, 6, 8])
def test_libraries_of_every_older_release_restore(library: Services, tmp_path: Path, version: int) -> None:
    old = tmp_path / f"library_v{version}.sqlite3"
    shutil.copy(FIXTURES / f"library_v{version}.sqlite3", old)
    articles = sqlite3.connect(old).execute("SELECT COUNT(*) FROM article").fetchone()[0]
    done = backup.restore(library.config, old)
    assert done.schema_version == version
    assert len(library.library.articles()) == articles
    version_now = sqlite3.connect(paths.database_path()).execute("PRAGMA user_version").fetchone()[0]
    from core.storage.db import SCHEMA_VERSION

    assert version_now == SCHEMA_VERSION
