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

import core.services.bootstrap as bootstrap
from tui.cli.main import cli

from .helpers import SAMPLES, integrity, library_problems, mr, query, scalar, write


@contextmanager
def page_limit(monkeypatch: pytest.MonkeyPatch, extra_pages: int) -> Iterator[None]:
    """While active, the database may grow by at most `extra_pages` pages."""
    real = bootstrap.open_database

    def limited(path, **kwargs):  # type: ignore[no-untyped-def]
        database = real(path, **kwargs)
        pages = database.execute_sql("PRAGMA page_count").fetchone()[0]
        database.pragma("max_page_count", pages + extra_pages, permanent=True)
        return database

    with monkeypatch.context() as m:
        m.setattr(bootstrap, "open_database", limited)
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
