"""A library an older release wrote (tests/fixtures/migrations/library_vN.sqlite3) as the test's
library, and the backup the upgrade makes of it first."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from core.storage.db import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "migrations"


def old_library(data_home: Path, version: int) -> tuple[Path, sqlite3.Connection]:
    """library_v`version` copied in as the library of `data_home`: its path, and a connection to
    it (the caller closes it), checked to be at that schema version."""
    data_home.mkdir(parents=True)
    target = data_home / "memoryrush.sqlite3"
    shutil.copy(FIXTURES / f"library_v{version}.sqlite3", target)
    con = sqlite3.connect(target)
    assert con.execute("PRAGMA user_version").fetchone()[0] == version
    return target, con


def upgrade_backup(data_home: Path, version: int) -> sqlite3.Connection:
    """The one backup the upgrade from `version` made: named for it, and still at `version` (a
    connection to it; the caller closes it)."""
    [backup] = sorted((data_home / "backups").glob("*.sqlite3"))
    assert f"v{version}-before-v{SCHEMA_VERSION}" in backup.name
    old = sqlite3.connect(backup)
    assert old.execute("PRAGMA user_version").fetchone()[0] == version
    return old
