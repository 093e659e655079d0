"""Disk full during import (and review): "disk full, nothing saved", database intact, retry works.

A full disk is simulated with `PRAGMA max_page_count` on every connection the app opens: the
real `open_database` runs, then the limit is added as a permanent pragma of the peewee database
(so worker threads' connections get it too). The CLI runs in-process through click's CliRunner.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

import core.storage.schema as schema
from tui.cli.main import cli

from .helpers import SAMPLES, integrity, library_problems, mr, query, scalar, write


@contextmanager
def page_limit(monkeypatch: pytest.MonkeyPatch, extra_pages: int) -> Iterator[None]:
    """While active, the database may grow by at most `extra_pages` pages."""
    real = schema.open_database  # (what open_services calls, when it opens)

    def limited(path, **kwargs):  # type: ignore[no-untyped-def]
        database = real(path, **kwargs)
        pages = database.execute_sql("PRAGMA page_count").fetchone()[0]
        database.pragma("max_page_count", pages + extra_pages, permanent=True)
        return database

    with monkeypatch.context() as m:
        m.setattr(schema, "open_database", limited)
        yield
    from core.storage.db import db

    db._pragmas = [p for p in db._pragmas if p[0] != "max_page_count"]


def _big_article(folder: Path) -> Path:
    paras = [f"Paragraph {i}: the disk fills while this sentence is being stored. " * 6 for i in range(400)]
    return write(folder / "big.txt", "\n\n".join(paras))


def _snapshot(home: Path) -> list[tuple]:
    return query(home, "SELECT id, document_id, paragraph_count FROM article ORDER BY id")


def test_import_on_a_full_disk_says_so_saves_nothing_and_retry_works(
    home: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder").returncode == 0
    )
    before = _snapshot(home)
    big = _big_article(inputs)
    runner = CliRunner()

    with page_limit(monkeypatch, extra_pages=4):
        full = runner.invoke(cli, ["import", str(big), "--extractor", "placeholder"])

    assert full.exit_code == 1, full.output
    assert "disk full, nothing saved" in full.output
    assert full.exception is None or isinstance(full.exception, SystemExit)
    assert _snapshot(home) == before  # nothing half-written
    assert scalar(home, "SELECT COUNT(*) FROM paragraph WHERE text LIKE '%disk fills%'") == 0
    assert integrity(home) == "ok"
    assert library_problems(home) == []

    retry = runner.invoke(cli, ["import", str(big), "--extractor", "placeholder"])
    assert retry.exit_code == 0, retry.output
    assert scalar(home, "SELECT paragraph_count FROM article WHERE title = 'big'") == 400
    assert library_problems(home) == []


def test_full_disk_refuses_only_what_does_not_fit(
    home: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder import: small files that fit are stored whole, the big one is refused whole."""
    assert mr(home, "list").returncode == 0
    write(inputs / "a_small.txt", "A small note.\n")
    _big_article(inputs)
    write(inputs / "c_small.txt", "Another small note.\n")

    with page_limit(monkeypatch, extra_pages=12):
        result = CliRunner().invoke(cli, ["import", str(inputs), "--extractor", "placeholder"])

    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.startswith("refused") and "big.txt" in line and "disk full" in line for line in lines), (
        lines
    )
    titles = {r[0] for r in query(home, "SELECT title FROM article")}
    assert "big" not in titles
    assert titles == {"a_small", "c_small"}
    assert library_problems(home) == []


def test_review_on_a_full_disk_says_so_keeps_the_card_and_retry_works(home: Path) -> None:
    """The app's review screen with the database at its page limit: answers are taken until
    one needs a new page; that one shows "disk full, nothing saved", leaves no trace (reps ==
    logs, integrity ok), keeps the card revealed; after the limit is raised the retry saves."""
    from core.storage.db import db
    from tui.screens.review import ReviewScreen

    from .app_driver import notices, run_app, settle
    from .helpers import confirmed_library, reps_mismatches

    confirmed_library(home)

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        db.execute_sql("VACUUM")  # no free pages left to grow into
        pages = db.execute_sql("PRAGMA page_count").fetchone()[0]
        db.pragma("max_page_count", pages, permanent=True)
        saved = 0
        for _ in range(200):
            assert screen.item is not None, "the session ran out before the disk filled"
            card = screen.item.card.id
            await pilot.press("space")
            await settle(pilot, 1)
            await pilot.press("3")
            await settle(pilot, 1)
            if any("disk full" in n for n in notices(app, "error")):
                break
            saved += 1
        else:
            raise AssertionError("200 answers fitted: the page limit never bit")
        assert any("disk full, nothing saved" in n for n in notices(app, "error"))
        logs = scalar(home, "SELECT COUNT(*) FROM review_log")
        assert logs == saved  # the failed answer left nothing behind
        assert reps_mismatches(home) == []
        assert integrity(home) == "ok"
        assert screen.item is not None and screen.item.card.id == card and screen.revealed

        db.pragma("max_page_count", 1_073_741_823, permanent=True)  # space again
        await pilot.press("3")
        await settle(pilot)
        assert scalar(home, "SELECT COUNT(*) FROM review_log") == saved + 1
        assert scalar(home, "SELECT COUNT(*) FROM review_log WHERE card_id = ?", (card,)) >= 1

    try:
        run_app(home, body, start="review")
    finally:
        db._pragmas = [p for p in db._pragmas if p[0] != "max_page_count"]
    assert reps_mismatches(home) == []
    assert integrity(home) == "ok"
