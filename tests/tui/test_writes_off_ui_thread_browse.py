"""Issue 31 for Browse, the Trash, Import and the search's memory of opened hits: each write is
a typed command run in a worker. The test clears the recorders once the app is up, presses the
writing keys, checks each write happened (database) and that none was on the UI thread."""

from __future__ import annotations

import pytest
from conftest import opened, running, searched, settle
from process_support import write_locked
from test_review_support import q
from writes_support import commands_run  # noqa: F401 (a fixture)

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.screens.browse import BrowseScreen
from tui.screens.import_screen import ImportScreen
from tui.screens.trash import TrashScreen
from tui.widgets.row_table import RowTable


def _status(unit: int) -> str:
    return str(q("SELECT status FROM unit WHERE id = ?", unit)[0][0])


async def test_browse_and_trash_keys_write_nothing_on_the_ui_thread(
    samples: Services,
    tui_clock: FixedClock,
    ui_thread_writes: list[str],
    commands_run: list[str],  # noqa: F811
) -> None:
    first, second = samples.library.articles()[:2]
    samples.curation.accept_all_valid(first.id)
    samples.curation.accept_all_valid(second.id)
    async with running(samples) as (_, pilot):
        ui_thread_writes.clear()
        screen = await opened(pilot, "b", BrowseScreen)  # opening lifts ended burials: a write
        await pilot.press("f", *f" article:{first.id}", "enter")
        await settle(pilot)
        row = screen._current()
        assert row is not None and row.key.card_id is not None
        await pilot.press("x")  # suspend
        await settle(pilot)
        assert q("SELECT queue FROM card WHERE id = ?", row.key.card_id) == [(-1,)]
        await pilot.press("u")  # undone
        await settle(pilot)
        assert q("SELECT queue FROM card WHERE id = ?", row.key.card_id) != [(-1,)]
        await pilot.press("d")  # to the trash
        await settle(pilot)
        assert _status(row.key.unit_id) == "trashed"
        await pilot.press("f", *["backspace"] * 20, *f"article:{second.id}", "enter")
        await settle(pilot)
        await pilot.press("A", "y")  # delete the second article
        await settle(pilot)
        assert q("SELECT COUNT(*) FROM article_trash WHERE article_id = ?", second.id) == [(1,)]
        trash = await opened(pilot, "w", TrashScreen)
        await pilot.press("r")  # the first row: the deleted article back
        await settle(pilot)
        assert q("SELECT COUNT(*) FROM article_trash") == [(0,)]
        table = trash.query_one(RowTable)
        assert table.row_count == 1  # the trashed unit
        await pilot.press("P", "y")  # purged for good
        await settle(pilot)
        assert q("SELECT COUNT(*) FROM unit WHERE id = ?", row.key.unit_id) == [(0,)]
    assert ui_thread_writes == []
    assert commands_run == [
        "LiftEndedBurials",
        "BulkAct",
        "UndoBulk",
        "BulkAct",
        "DeleteArticle",
        "RestoreArticle",
        "Purge",
    ]


async def test_an_import_is_the_import_command_off_the_ui_thread(
    svc: Services,
    ui_thread_writes: list[str],
    commands_run: list[str],  # noqa: F811
) -> None:
    from sample_articles import sample_paths

    path = sample_paths()[0]
    async with running(svc) as (_, pilot):
        ui_thread_writes.clear()
        screen = await opened(pilot, "i", ImportScreen)
        await pilot.press(*str(path), "enter")
        await settle(pilot)
        assert not screen.running
    assert [a.source_path for a in svc.library.articles()] == [str(path)]
    assert ui_thread_writes == []
    assert commands_run == ["Import"]


async def test_an_opened_search_hit_is_remembered_by_a_command_off_the_ui_thread(
    samples: Services,
    ui_thread_writes: list[str],
    commands_run: list[str],  # noqa: F811
) -> None:
    async with running(samples) as (_, pilot):
        await searched(pilot, "chlorophyll")
        ui_thread_writes.clear()
        await pilot.press("down", "enter")  # the first hit opened
        await settle(pilot)
    assert q("SELECT SUM(opens) FROM search_feedback") == [(1,)]
    assert "RecordOpen" in commands_run
    assert not [sql for sql in ui_thread_writes if "search_feedback" in sql]


async def test_the_trash_waits_for_a_restore_on_its_way(
    samples: Services,
    monkeypatch: pytest.MonkeyPatch,
    commands_run: list[str],  # noqa: F811
) -> None:
    """Another process holds the write lock: the restore waits in its worker, the screen keeps
    answering, and a second r says to wait rather than restoring the same row again."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "5000")
    article = samples.library.articles()[0]
    samples.browse.delete_article(article.id)
    async with running(samples, notifications=True) as (app, pilot):
        screen = await opened(pilot, "b", BrowseScreen)
        trash = await opened(pilot, "w", TrashScreen)
        assert screen is not trash
        with write_locked():
            await pilot.press("r")
            await pilot.pause(0.1)
            assert trash.writing
            await pilot.press("r")
            await pilot.pause()
            assert any("still being written" in str(n.message) for n in app._notifications)
        await settle(pilot)
        assert not trash.writing
    assert commands_run.count("RestoreArticle") == 1
    assert q("SELECT COUNT(*) FROM article_trash") == [(0,)]
