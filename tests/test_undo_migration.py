"""A schema-8 library (tests/fixtures/migrations/library_v8.sqlite3, written by main at 866bb52)
opens with today's code (schema 9 and on), and the undo entries it was written with still undo: they
have no record of what their action left, so they put back what they snapshotted, as they did."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from core.domain.undo import Scope
from core.services.bootstrap import open_services
from core.storage.db import SCHEMA_VERSION

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "migrations" / "library_v8.sqlite3"


def test_the_old_journals_undo_after_the_upgrade(data_home: Path) -> None:
    data_home.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURE, data_home / "memoryrush.sqlite3")
    svc = open_services(data_home)
    try:
        con = sqlite3.connect(data_home / "memoryrush.sqlite3")
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 9
        assert con.execute("SELECT COUNT(*) FROM card WHERE suspended = 1").fetchone()[0] == 2
        done = svc.undo.undo(Scope.BULK)
        assert done is not None and done.action == "suspend" and done.cards == 2 and done.cards_left == 0
        assert con.execute("SELECT COUNT(*) FROM card WHERE suspended = 1").fetchone()[0] == 0
        rejected = svc.undo.undo(Scope.CURATION)
        assert rejected is not None and not rejected.changed_since
        assert con.execute("SELECT COUNT(*) FROM unit WHERE status = 'rejected'").fetchone()[0] == 0
        logs = con.execute("SELECT COUNT(*) FROM review_log").fetchone()[0]
        answer = svc.undo.undo(Scope.REVIEW)
        assert answer is not None and answer.action == "rate" and not answer.changed_since
        assert con.execute("SELECT COUNT(*) FROM review_log").fetchone()[0] == logs - 1
        con.close()
    finally:
        svc.close()
