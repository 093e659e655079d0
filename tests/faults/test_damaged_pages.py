"""Pages damaged after start-up (issue 14, item 6): a library opens, then a read meets a page
that is garbage. Every such read says "damaged, restore one from backups/" instead of a peewee
traceback: in the CLI (exit code 2) and in the app (a notice; the app keeps running).

The damage is real: the paragraph table's root page of a real SQLite file is overwritten, so
opening the library (schema, counts) still works and reading any paragraph fails.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from .helpers import SAMPLES, db_file, run_mr

DAMAGED = "the database file is damaged"


def damage(home: Path, table: str) -> None:
    """Overwrite the root page of `table` (the library is closed: its WAL is checkpointed)."""
    path = db_file(home)
    con = sqlite3.connect(path)
    try:
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        (root,) = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    finally:
        con.close()
    assert (
        not path.with_name(path.name + "-wal").exists()
        or path.with_name(path.name + "-wal").stat().st_size == 0
    )
    with path.open("r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xa5" * page_size)


def _damaged_samples(home: Path) -> None:
    done = run_mr(home, "import", str(SAMPLES), "--extractor", "offline")
    assert done.returncode == 0, done.stderr
    damage(home, "paragraph")
    listed = run_mr(home, "list")  # start-up and the article table are fine
    assert listed.returncode == 0 and "photosynthesis" in listed.stdout.lower(), listed.stderr


@pytest.fixture
def damaged_library(home: Path) -> Path:
    """The samples imported by the CLI, the paragraph table's root page overwritten, and `list`
    still working on it: built once per test process, a fresh copy of the file here
    (tests/built_libraries.py)."""
    from built_libraries import copy_built

    copy_built("damaged-samples", home, _damaged_samples)
    return home


@pytest.mark.parametrize(
    "command", [["search", "--article", "1", "light"], ["search", "light"], ["search", "光合作用"]]
)
def test_the_cli_says_damaged_and_exits_2(damaged_library: Path, command: list[str]) -> None:
    done = run_mr(damaged_library, *command)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "peewee" not in done.stderr, done.stderr
    assert DAMAGED in done.stderr and "restore one from backups/" in done.stderr, done.stderr


def test_the_app_says_damaged_and_keeps_running(damaged_library: Path) -> None:
    from tui.screens.article import ArticleScreen
    from tui.screens.triage import TriageScreen

    from .app_driver import notices, run_app, settle

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_article(1)
        await settle(pilot)
        assert isinstance(app.screen, ArticleScreen)
        await pilot.press("down", "n", "right_square_bracket")  # move, next unit, next evidence
        await settle(pilot)
        errors = notices(app, "error")
        assert any(DAMAGED in e and "restore one from backups/" in e for e in errors), notices(app)
        await pilot.press("escape", "t")  # Triage reads the evidence paragraphs too
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        assert len([e for e in notices(app, "error") if DAMAGED in e]) > len(errors)
        assert app.is_running

    run_app(damaged_library, body)


def test_a_screen_workers_read_error_is_reported_too(home: Path) -> None:
    """Home's figures are read by a thread worker: its error reaches the one error path as
    well (a worker's state message goes to its screen only; Home once showed "Loading …" for ever)."""
    from .app_driver import notices, run_app, settle

    done = run_mr(home, "import", str(SAMPLES), "--extractor", "offline")
    assert done.returncode == 0, done.stderr
    damage(home, "card")

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        errors = notices(app, "error")
        assert any(e.startswith("reading today's figures: ") and DAMAGED in e for e in errors), notices(app)
        assert app.is_running

    run_app(home, body)
