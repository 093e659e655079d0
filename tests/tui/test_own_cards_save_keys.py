"""Issue 16, `c` saves at once: a selection starting reads the article's topic terms ahead (a
worker), then `c` stores the cloze by a command in a worker (issue 31: never on the UI thread)
and the Article lists it when its message comes, drawing again only what changed; with another
process holding the write lock the worker waits and the screen does not, the selection stays,
a second `c` meanwhile makes no second card, and the card is saved when the lock is free
(nothing lost)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from conftest import imported, running, settle
from process_support import write_locked
from spies import noted, says
from textual.widgets import Static

from core.domain import READER, SelectedSpan
from core.services.bootstrap import Services

ARTICLE = """# Libraries

About 42 percent of adults never visit a public library in a given year.

Public libraries lend books, films and music to anyone with a card.
"""


def _import(svc: Services, tmp_path: Path) -> int:
    return imported(svc, tmp_path / "libraries.md", ARTICLE)


def _yours(svc: Services, article_id: int) -> list[int]:
    return [u.id for u in svc.library.units(article_id, ["confirmed"]) if u.extractor == READER]


async def _select_42_percent(pilot: Any) -> None:
    """From Home: the Library's article opened, and "42 percent" selected in its first paragraph."""
    await settle(pilot)
    await pilot.press("l", "enter")
    await settle(pilot)
    await pilot.press("home", "right", "v", "shift+right")
    await settle(pilot)


async def test_c_saves_the_cloze_in_a_worker_and_lists_it(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    from tui.screens.article import ArticleScreen
    from tui.widgets.paragraph_view import ParagraphView

    article_id = _import(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _select_42_percent(pilot)  # the selection started: the article's topic terms are read ahead
        screen = app.screen
        assert isinstance(screen, ArticleScreen)
        assert svc.authoring.ready(article_id)
        ui_thread_writes.clear()
        await pilot.press("c")
        await settle(pilot)
        assert ui_thread_writes == [], "saved on the UI thread"
        (mine,) = _yours(svc, article_id)
        assert screen.units[-1].id == mine  # listed at once, highlighted
        assert screen.query_one("#article-units").highlighted == len(screen.units) - 1  # type: ignore[attr-defined]
        assert screen.query_one(ParagraphView).selection is None
        said = str(screen.query_one("#article-filter", Static).render())
        assert said.startswith("✓ Cloze saved as yours, in today's session"), said  # said in place,
        assert not any("saved as yours" in str(n.message) for n in app._notifications)  # no toast


def _frames() -> AbstractContextManager[list[object]]:
    """While on: the screen layouts, the paragraph view's whole-frame builds and the key line's
    drawings."""
    from textual.screen import Screen

    from tui.widgets.key_bar import KeyBar
    from tui.widgets.paragraph_window import ParagraphWindow

    return noted(
        (Screen, "_refresh_layout", says("layout")),
        (ParagraphWindow, "visible_indices", says("whole paragraph frame")),
        (KeyBar, "render", says("key line drawn")),
    )


async def test_c_draws_again_only_what_changed(svc: Services, tmp_path: Path) -> None:
    """An article with more units than the list has loaded (the new one, last, comes with the
    pages): the save draws the selection's paragraph again (its lines, in the kept frame), the
    key line (as drawn before the selection) and the line above the units, and lays nothing out.
    A toast for the save laid the screen out again, and the whole paragraph frame was built."""
    article_id = _import(svc, tmp_path)
    for _ in range(45):  # more than the list's first page
        svc.authoring.cloze(article_id, [SelectedSpan("p_002", 0, 6, "Public")])
    async with running(svc, notifications=True) as (app, pilot):
        await _select_42_percent(pilot)
        with _frames() as calls:
            await pilot.press("c")
            await settle(pilot)
        assert len(_yours(svc, article_id)) == 46
        assert calls == [], calls
        said = str(app.screen.query_one("#article-filter", Static).render())
        assert said.startswith("✓ Cloze saved as yours"), said


async def test_c_lists_the_card_in_the_frame_after_the_key(svc: Services, tmp_path: Path) -> None:
    """Every unit listed: the new one is added, highlighted, its card and evidence shown in the
    same frame, one layout for the list's new line and the card below it (Textual lays out once
    more when the card's height changed). Before: the highlight showed it a frame later, and a
    toast laid the screen out again (four layouts)."""
    article_id = _import(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _select_42_percent(pilot)
        with _frames() as calls:
            await pilot.press("c")
            await settle(pilot)
        (mine,) = _yours(svc, article_id)
        assert app.screen._shown_unit.id == mine  # type: ignore[attr-defined]
        assert calls.count("layout") <= 2 and "key line drawn" not in calls, calls


async def test_c_on_a_locked_database_waits_in_a_worker_and_saves_when_free(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.widgets.paragraph_view import ParagraphView

    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "20000")
    article_id = _import(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _select_42_percent(pilot)
        view = app.screen.query_one(ParagraphView)
        with write_locked():  # another process holds the write lock
            await pilot.press("c")
            await pilot.pause(0.2)
            assert app.worker_threads.writing()  # the cloze waits on the writer thread
            assert view.selection is not None and not _yours(svc, article_id)  # waiting, kept
            await pilot.press("c")  # again, impatient: not a second card
            await pilot.pause()
        await settle(pilot)
        assert len(_yours(svc, article_id)) == 1 and view.selection is None
        shown = [str(n.message) for n in app._notifications]
        assert any("Still saving" in m for m in shown), shown
