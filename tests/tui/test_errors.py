"""A worker error or a refused file shows a notice; the app never exits on its own."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import opened, running, settle
from textual.widgets._toast import Toast

from core.host import paths
from core.services.bootstrap import Services
from tui import runner
from tui.screens.import_screen import ImportScreen


def toasts(app: object) -> list[str]:
    return [toast.render().plain for toast in app.screen.query(Toast)]  # type: ignore[attr-defined]


async def test_worker_error_becomes_a_notice_and_the_app_keeps_running(svc: Services) -> None:
    async with running(svc, notifications=True) as (app, pilot):
        runner.start(  # the one way a worker starts (tui/runner.py)
            app,
            "saving an edit",
            lambda: svc.curation.edit(999_999, content="x", memory_type="claim", tags=(), questions=()),
        )
        await settle(pilot)
        assert any("saving an edit" in t and "999999 does not exist" in t for t in toasts(app)), toasts(app)
        assert app.is_running


async def test_import_into_a_busy_database_reports_the_file_and_keeps_running(
    svc: Services, hostile_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "100")
    blocker = sqlite3.connect(paths.database_path(), timeout=0.1)
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "i", ImportScreen)
        blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            await pilot.press(*"articles", "enter")
            await settle(pilot, rounds=6)
        finally:
            blocker.rollback()
            blocker.close()
        log = "\n".join(app.screen.query_one("#import-log").lines)  # type: ignore[attr-defined]
        assert "refused" in log and "evil.md" in log
        assert any("Import finished" in t for t in toasts(app)), toasts(app)
        assert svc.library.article_count() == 0
        assert app.is_running
