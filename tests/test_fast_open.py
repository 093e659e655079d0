"""Opening a library without peewee (core/storage/fast_open.py), the app's cold start: only a file
that needs nothing done is left to its first read; every other one still takes the full open
(created, migrated after a backup, refused, purged, re-rendered), also in a fresh process where
peewee is not loaded."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from core.domain import READER_VERSION
from core.services.bootstrap import open_services
from core.storage import db as storage_db
from core.storage import schema
from core.storage.fast_open import needs_nothing
from core.storage.layout import SCHEMA_NAMES, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
TEXT = "# Forgetting notes\n\nSpaced repetition schedules each review just before you would forget it.\n"


def test_the_schema_names_are_what_the_tables_make() -> None:
    schema.registered_models()  # every table module is imported
    made = storage_db._expected_names()
    assert made == SCHEMA_NAMES, (
        f"core/storage/layout.py SCHEMA_NAMES: add {sorted(made - SCHEMA_NAMES)}, "
        f"remove {sorted(SCHEMA_NAMES - made)}"
    )


def _library(home: Path, tmp_path: Path) -> Path:
    """A current library with one imported article and its units."""
    services = open_services(home)
    try:
        source = tmp_path / "notes.md"
        source.write_text(TEXT, encoding="utf-8")
        [outcome] = services.library.import_paths([source], extractor="placeholder")
        assert outcome.article_id is not None
    finally:
        services.close()
    return home / "memoryrush.sqlite3"


def _run(path: Path, sql: str) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(sql)
        con.commit()
    finally:
        con.close()


CHANGES: dict[str, Callable[[Path], None]] = {
    "older schema": lambda p: _run(p, f"PRAGMA user_version = {SCHEMA_VERSION - 1}"),
    "newer schema": lambda p: _run(p, f"PRAGMA user_version = {SCHEMA_VERSION + 1}"),
    "an index missing": lambda p: _run(p, "DROP INDEX unit_trashed_at"),
    "a table missing": lambda p: _run(p, "DROP TABLE search_feedback"),
    "a unit in the trash": lambda p: _run(
        p, "UPDATE unit SET status = 'trashed' WHERE id = (SELECT min(id) FROM unit)"
    ),
    "an older reader's article": lambda p: _run(
        p, f"UPDATE article SET reader_version = {READER_VERSION - 1}"
    ),
    "an empty file": lambda p: p.write_bytes(b""),
    "no file": lambda p: p.unlink(),
    "not a database": lambda p: p.write_bytes(b"not a database" * 512),
}


def test_a_current_library_needs_nothing(data_home: Path, tmp_path: Path) -> None:
    assert needs_nothing(_library(data_home, tmp_path), READER_VERSION)


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_library_with_something_to_do_takes_the_full_open(
    data_home: Path, tmp_path: Path, change: str
) -> None:
    path = _library(data_home, tmp_path)
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    CHANGES[change](path)
    assert not needs_nothing(path, READER_VERSION)


# A fresh process, as the `memoryrush` command starts: open_services, then (maybe) one read.
FRESH = """
import json, sys
from core.services.bootstrap import open_services
try:
    services = open_services(None)
except Exception as exc:
    print(json.dumps({"error": str(exc)})); raise SystemExit(0)
seen = {"peewee_at_open": "peewee" in sys.modules}
if sys.argv[1] == "read":
    seen["articles"] = services.library.article_count()
    from core.storage.db import db
    seen["bound"] = db.database
services.close()
seen["peewee_at_close"] = "peewee" in sys.modules
print(json.dumps(seen))
"""


def _fresh(home: Path, what: str) -> dict[str, object]:
    env = {**os.environ, "MEMORYRUSH_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", FRESH, what], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_current_library_is_bound_by_its_first_read(data_home: Path, tmp_path: Path) -> None:
    path = _library(data_home, tmp_path)
    assert _fresh(data_home, "read") == {
        "peewee_at_open": False,
        "articles": 1,
        "bound": str(path),
        "peewee_at_close": True,
    }
    # opened and closed without a read: peewee is never loaded
    assert _fresh(data_home, "close") == {"peewee_at_open": False, "peewee_at_close": False}


def test_an_older_library_is_still_migrated_after_a_backup(data_home: Path, tmp_path: Path) -> None:
    path = _library(data_home, tmp_path)
    CHANGES["older schema"](path)
    assert _fresh(data_home, "close")["peewee_at_open"] is True
    [backup] = (data_home / "backups").glob("*.sqlite3")
    assert f"v{SCHEMA_VERSION - 1}-before-v{SCHEMA_VERSION}" in backup.name
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        con.close()


def test_a_newer_library_is_still_refused(data_home: Path, tmp_path: Path) -> None:
    path = _library(data_home, tmp_path)
    CHANGES["newer schema"](path)
    said = _fresh(data_home, "close")["error"]
    assert "written by a newer MemoryRush" in str(said) and "nothing was changed" in str(said)


def test_a_long_trashed_unit_is_still_purged_at_start_up(data_home: Path, tmp_path: Path) -> None:
    path = _library(data_home, tmp_path)
    _run(
        path,
        "UPDATE unit SET status = 'trashed', status_before_trash = status, trashed_at = 0 "
        "WHERE id = (SELECT min(id) FROM unit)",
    )
    assert _fresh(data_home, "close")["peewee_at_open"] is True
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT count(*) FROM unit WHERE status = 'trashed'").fetchone()[0] == 0
    finally:
        con.close()


# The app on that start path: Home's first frame with peewee not loaded, then its figures, read
# by the worker whose first read binds the library.
APP = """
import json, sys
from core.services.bootstrap import open_services
from tui.app import MemoryRushApp

class Probe(MemoryRushApp):
    def on_ready(self):
        super().on_ready()
        self.seen = {"peewee_at_ready": "peewee" in sys.modules}
        self.set_interval(0.05, self.look)

    def look(self):
        totals = str(self.screen.query_one("#home-totals").render())
        if totals:
            self.seen["totals"] = totals
            self.exit()

services = open_services(None)
app = Probe(services)
try:
    app.run(headless=True, size=(120, 40))
finally:
    services.close()
print(json.dumps(app.seen))
"""


def test_the_app_shows_home_and_then_its_figures_from_the_file(data_home: Path, tmp_path: Path) -> None:
    _library(data_home, tmp_path)
    env = {**os.environ, "MEMORYRUSH_HOME": str(data_home)}
    done = subprocess.run(
        [sys.executable, "-c", APP], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["peewee_at_ready"] is False
    assert "1 article" in seen["totals"], seen
