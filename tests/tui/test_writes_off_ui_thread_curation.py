"""Issue 31, the curation and authoring screens: every change their keys and dialogs make is a
typed command run in a worker, never a write on the UI thread (Triage's accept, reject, undo,
accept-all, fixes, edit, keep anyway, keep and retire; the Article's cards of yours, unit of an
idea, undo and reading position; the Library's rename). Each test clears `ui_thread_writes` once
its app is up, presses the keys, checks the library changed (the database) and that no write
statement went out on the UI thread. A held write lock makes Triage's keys wait, not freeze."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import imported, opened, running, settle
from process_support import write_locked
from textual.widgets import Input, TextArea

from core.domain import READER
from core.services.bootstrap import Services
from tui.modals.edit_unit import EditUnitModal
from tui.modals.prompt import Ask
from tui.modals.reason import ReasonModal
from tui.screens.article import ArticleScreen
from tui.screens.library import LibraryScreen
from tui.screens.triage import TriageScreen
from tui.widgets.paragraph_view import ParagraphView

ARTICLE = """# Light and life

Photosynthesis converts light energy into chemical energy in the chloroplasts of green plants. The Calvin cycle then fixes carbon dioxide into sugars.

The survey found that 42 percent of adults never visit a public library.

Mitochondria release the energy stored in glucose through cellular respiration, and they do so in every animal cell.
"""
LIBRARIES = """# Libraries

About 42 percent of adults never visit a public library in a given year.

Public libraries lend books, films and music to anyone with a card.
"""
NOTES = "# Notes\n\n## Scheduling\n\nSpaced repetition spreads reviews over growing intervals.\n\nSleep consolidates what was learned during the day.\n"
CHANGED = "# Notes\n\n## Scheduling\n\nA different text now stands here about something else.\n"


def _status(svc: Services, unit_id: int) -> str:
    unit = svc.library.unit(unit_id)
    assert unit is not None
    return unit.status


def _yours(svc: Services, article_id: int) -> list[int]:
    return [u.id for u in svc.library.units(article_id, ["confirmed"]) if u.extractor == READER]


async def _press(pilot: object, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)  # type: ignore[attr-defined]
        await settle(pilot)


async def test_triage_decides_undoes_and_accepts_all_off_the_ui_thread(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    article_id = imported(svc, tmp_path / "light.md", ARTICLE)
    async with running(svc) as (_app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        ui_thread_writes.clear()
        assert screen.unit is not None
        first = screen.unit.id
        await _press(pilot, "a")
        assert _status(svc, first) == "confirmed" and screen.unit is not None and screen.unit.id != first
        second = screen.unit.id
        await _press(pilot, "r")
        assert _status(svc, second) == "rejected"
        await _press(pilot, "u")  # the reject undone: that unit shown again
        assert _status(svc, second) == "proposed" and screen.unit is not None and screen.unit.id == second
        await _press(pilot, "A")
        assert all(u.status == "confirmed" for u in svc.library.units(article_id) if u.acceptable)
        assert screen.unit is None
    assert ui_thread_writes == []


async def test_triage_fixes_edit_and_keep_anyway_off_the_ui_thread(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    imported(svc, tmp_path / "light.md", ARTICLE)
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        ui_thread_writes.clear()
        unit = screen.unit
        assert unit is not None and "Photosynthesis" in unit.content
        await _press(pilot, "b")  # the next blank
        blanks = [q.expected_answer for q in unit.questions if q.kind == "cloze"]
        after = svc.library.unit(unit.id)
        assert (
            after is not None and [q.expected_answer for q in after.questions if q.kind == "cloze"] != blanks
        )
        await _press(pilot, "S")  # split in two
        assert len(svc.library.units(unit.article_id)) == 4
        await _press(pilot, "home", "v", "right_curly_bracket", "E")  # the whole paragraph is its evidence
        stored = svc.library.unit(unit.id)
        assert stored is not None and stored.evidence[0].quote.endswith("into sugars.")
        while screen.unit is not None and "42 percent" not in screen.unit.content:
            await _press(pilot, "s")
        survey = screen.unit
        assert survey is not None
        await opened(pilot, "e", EditUnitModal)
        content = app.screen.query_one("#edit-content", TextArea)
        content.text = survey.content.replace("42 percent", "90 percent")
        await _press(pilot, "ctrl+s", "ctrl+s")  # saved with its contradiction
        edited = svc.library.unit(survey.id)
        assert edited is not None and "90 percent" in edited.content and not edited.acceptable
        await opened(pilot, "exclamation_mark", ReasonModal)
        await pilot.press(*"newer survey", "enter")
        await settle(pilot)
        kept = svc.library.unit(survey.id)
        assert kept is not None and kept.acceptable
        assert any(i.kept == "newer survey" for i in kept.issues)
    assert ui_thread_writes == []


async def test_triage_keeps_and_retires_changed_units_off_the_ui_thread(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    path = tmp_path / "notes.md"
    path.write_text(NOTES, encoding="utf-8")
    [outcome] = svc.library.import_paths([path], extractor="placeholder")
    assert outcome.article_id is not None
    svc.curation.accept_all_valid(outcome.article_id)
    path.write_text(CHANGED, encoding="utf-8")
    svc.library.import_paths([path], extractor="placeholder")
    assert len(svc.library.units(source_changed=True)) == 2
    async with running(svc) as (_app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        await _press(pilot, "c")
        ui_thread_writes.clear()
        first = screen.unit
        assert first is not None and first.source_changed
        await _press(pilot, "K")
        assert getattr(svc.library.unit(first.id), "anchor", None) == "kept"
        second = screen.unit
        assert second is not None and second.id != first.id
        await _press(pilot, "X")
        assert _status(svc, second.id) == "trashed"
    assert ui_thread_writes == []


async def test_triage_keys_wait_their_turn_while_another_process_holds_the_lock(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accept waits for the lock in a worker: the screen runs on, and a key pressed
    meanwhile waits its turn: it acts on the next proposal once the accept is saved and that one
    shown (as when each change was saved before the next key was read), never on the unit being
    accepted."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "20000")
    imported(svc, tmp_path / "light.md", ARTICLE)
    async with running(svc, notifications=True) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        assert screen.unit is not None
        first = screen.unit.id
        with write_locked():  # another process holds the write lock
            await pilot.press("a")
            await pilot.pause(0.2)
            assert app.worker_threads.writing()  # the accept waits on the writer thread
            await pilot.press("r")  # waits its turn
            await pilot.pause()
            assert screen.unit is not None and screen.unit.id == first and screen.ahead.waiting == ["reject"]
        await settle(pilot)
        await settle(pilot)
        assert _status(svc, first) == "confirmed" and screen.unit is not None and screen.unit.id != first
        (rejected,) = [u for u in svc.library.units() if u.status == "rejected"]
        assert rejected.id != first and screen.unit.id != rejected.id and screen.ahead.waiting == []


async def test_triage_keys_pressed_fast_each_act_in_turn(samples: Services) -> None:
    """Ten `r` without a pause: ten proposals rejected, one after the other."""
    async with running(samples) as (_app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        waiting = samples.library.unit_count("proposed")
        assert waiting > 10
        for _ in range(10):
            await pilot.press("r")
        for _ in range(5):
            await settle(pilot)
        assert samples.library.unit_count("proposed") == waiting - 10
        assert not screen.ahead.waiting


async def test_article_cards_idea_unit_undo_and_position_off_the_ui_thread(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    article_id = imported(svc, tmp_path / "libraries.md", LIBRARIES)
    async with running(svc) as (app, pilot):
        await _press(pilot, "l", "enter")
        screen = app.screen
        assert isinstance(screen, ArticleScreen) and screen.article_id == article_id
        ui_thread_writes.clear()
        view = screen.query_one(ParagraphView)
        await _press(pilot, "home", "right", "v", "shift+right", "c")  # a cloze of yours
        assert len(_yours(svc, article_id)) == 1 and view.selection is None
        await _press(pilot, "home", "down", "v", "right_parenthesis", "n")  # a unit of yours, by the form
        assert isinstance(app.screen, EditUnitModal)
        await _press(pilot, "ctrl+s")
        assert len(_yours(svc, article_id)) == 2
        await _press(pilot, "u")  # the unit of yours to the trash
        assert len(_yours(svc, article_id)) == 1
        await _press(pilot, "s", "m")  # a unit of the first core idea
        assert len(_yours(svc, article_id)) == 2
        view.focus()
        await _press(pilot, "end")
        last = view.cursor
        assert last > 0
        await _press(pilot, "escape")  # leaving remembers where you were
        assert svc.library.reading_position(article_id) == last
    assert ui_thread_writes == []


async def test_library_renames_off_the_ui_thread(samples: Services, ui_thread_writes: list[str]) -> None:
    first = samples.library.articles()[0]
    async with running(samples) as (app, pilot):
        await opened(pilot, "l", LibraryScreen)
        ui_thread_writes.clear()
        await opened(pilot, "r", Ask)
        app.screen.query_one(Input).value = ""
        await pilot.press(*"Mine", "enter")
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen)
        renamed = samples.library.article(first.id)
        assert renamed is not None and renamed.title == "Mine"
    assert ui_thread_writes == []


async def test_quitting_on_an_article_remembers_where_you_were(
    samples: Services, ui_thread_writes: list[str]
) -> None:
    """The position is written by a worker that outlives the screen: quitting there (the
    screen unmounted as the app ends) still saves it (the app's thread workers are waited for
    as its loop closes, tui/workers.py; here the test may read before that)."""
    article = samples.library.articles()[0]
    async with running(samples) as (app, pilot):
        await _press(pilot, "l", "enter")
        assert isinstance(app.screen, ArticleScreen)
        ui_thread_writes.clear()
        view = app.screen.query_one(ParagraphView)
        view.focus()
        await _press(pilot, "end")
        last = view.cursor
        await _press(pilot, "ctrl+q")
    deadline = time.monotonic() + 10  # the worker may end after the app: it waits for its workers
    while samples.library.reading_position(article.id) != last and time.monotonic() < deadline:
        time.sleep(0.05)
    assert last > 0 and samples.library.reading_position(article.id) == last
    assert ui_thread_writes == []


async def test_review_makes_a_cloze_of_yours_off_the_ui_thread(
    svc: Services, tmp_path: Path, ui_thread_writes: list[str]
) -> None:
    """Review makes cards of yours as the Article does (its OwnCards): after the reveal, a
    selection of the evidence and `c`."""
    from tui.screens.review import ReviewScreen

    article_id = imported(svc, tmp_path / "libraries.md", LIBRARIES)
    svc.curation.accept_all_valid(article_id)
    async with running(svc, start="review") as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        ui_thread_writes.clear()
        await _press(pilot, "space", "v", "right", "v", "c")
        assert len(_yours(svc, article_id)) == 1
        assert app.screen is screen
    assert ui_thread_writes == []
