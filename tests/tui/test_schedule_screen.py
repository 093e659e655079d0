"""Schedule walked by keys: set an easy day and a vacation and see the forecast move; the
database has the new due dates and the library's settings (issue 17's "Done when")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from conftest import opened, running, screen_text, settle
from process_support import write_locked
from test_review_support import due_one_a_day, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.screens.browse import BrowseScreen
from tui.screens.schedule import ScheduleScreen
from tui.screens.settings import SettingsScreen

DAY = 86400


def _per_day(clock: FixedClock) -> list[int]:
    today = int(clock.now().timestamp()) // DAY
    counts = dict(q("SELECT due / 86400 - ?, COUNT(*) FROM card WHERE queue = 2 GROUP BY 1", today))
    return [int(counts.get(d, 0)) for d in range(60)]  # type: ignore[call-overload]


async def test_an_easy_day_and_a_vacation_move_the_forecast(svc: Services, tui_clock: FixedClock) -> None:
    due_one_a_day(svc, tui_clock)
    before = _per_day(tui_clock)
    assert before[1:11] == [2] * 10
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "w", ScheduleScreen)
        assert screen.forecast is not None
        assert screen.forecast.due[1:11] == (2,) * 10
        today = tui_clock.now().date()
        easy = ["1"] * 7
        easy[(today + timedelta(days=2)).weekday()] = "0"  # the weekday two days on: none
        await pilot.press("e", *["backspace"] * 20, *" ".join(easy), "enter")
        await settle(pilot)
        assert q("SELECT value_json FROM setting WHERE key = 'easy_days'") == [
            (f"[{', '.join(f'{float(x)}' for x in easy)}]",)
        ]
        assert _per_day(tui_clock)[2] == 0 and screen.forecast.due[2] == 0
        first, last = today + timedelta(days=5), today + timedelta(days=6)
        await pilot.press("v", *f"{first}..{last}", "enter")
        await settle(pilot)
        after = _per_day(tui_clock)
        assert after[5] == after[6] == 0 and sum(after) == sum(before)
        assert screen.forecast.due[5] == screen.forecast.due[6] == 0
        assert f"Vacations (no reviews): {first}..{last}" in screen_text(app)
        await pilot.press("u", "u")  # both moves taken back
        await settle(pilot)
        assert _per_day(tui_clock) == before


async def test_moving_cards_runs_in_a_worker_while_the_screen_answers(
    svc: Services, tui_clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An easy day's move (up to ~100k cards of a million: seconds) waits for a locked database
    in a named worker: the screen says what it is doing and keeps taking keys; the cards move
    once the lock is free, and `u` (in a worker too) takes them back."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "20000")
    due_one_a_day(svc, tui_clock)
    before = _per_day(tui_clock)
    async with running(svc) as (app, pilot):
        await pilot.press("w")
        await settle(pilot)
        easy = ["1"] * 7
        easy[(tui_clock.now().date() + timedelta(days=2)).weekday()] = "0"
        with write_locked():  # another process holds the write lock
            await pilot.press("e", *["backspace"] * 20, *" ".join(easy), "enter")
            await pilot.pause(0.2)
            assert [w.name for w in app.workers if w.is_running] == ["moving cards off the easy days"]
            assert "Moving cards off the easy days …" in screen_text(app)
            await pilot.press("question_mark")  # the UI thread is free: help opens
            await pilot.pause()
            assert app.screen is not None and not isinstance(app.screen, ScheduleScreen)
            await pilot.press("escape")
            assert _per_day(tui_clock) == before  # nothing moved while the lock is held
        await settle(pilot)
        assert _per_day(tui_clock)[2] == 0
        await pilot.press("u")
        await settle(pilot)
        assert _per_day(tui_clock) == before


def _review_dues() -> list[tuple[object, ...]]:
    return q("SELECT id, due FROM card WHERE queue = 2 ORDER BY id")


async def rescheduled_for_80(app: Any, pilot: Any, before: list[tuple[object, ...]]) -> None:
    """After 0.8 was saved for the desired retention (90% before, due_one_a_day's 20 review
    cards): the question with the workload, `y`, and every review card due later."""
    await settle(pilot)
    shown = screen_text(app)
    assert "Reschedule your review cards for the new retention?" in shown
    assert "20 review cards re-timed for 80% (from 90%)" in shown
    await pilot.press("y")
    await settle(pilot)
    after = _review_dues()
    assert after != before and len(after) == len(before)  # S 20 at 80%: later than at 90%
    assert all(a[1] > b[1] for a, b in zip(after, before, strict=True))  # type: ignore[operator]


async def test_a_new_retention_shows_the_workload_then_reschedules_in_a_worker(
    svc: Services, tui_clock: FixedClock
) -> None:
    due_one_a_day(svc, tui_clock)
    before = _review_dues()
    async with running(svc) as (app, pilot):
        await pilot.press("w")
        await settle(pilot)
        await pilot.press("r", *["backspace"] * 10, *"0.8", "enter")
        await rescheduled_for_80(app, pilot, before)
        await pilot.press("u")
        await settle(pilot)
        assert _review_dues() == before


async def test_a_retention_saved_in_settings_offers_the_reschedule_that_u_in_browse_undoes(
    svc: Services, tui_clock: FixedClock
) -> None:
    """Settings holds a RescheduleOffer too (tui/screens/reschedule.py): the same question, the
    same journalled bulk write, and `u` in Browse takes it back."""
    due_one_a_day(svc, tui_clock)
    before = _review_dues()
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "comma", SettingsScreen)
        await pilot.press(*"0.8", "ctrl+s")  # the first field, desired retention, its text selected
        await rescheduled_for_80(app, pilot, before)
        said = [str(n.message) for n in app._notifications]
        assert "Rescheduled 20 cards · u in Browse or Schedule undoes it" in said, said
        await pilot.press("escape")
        await opened(pilot, "b", BrowseScreen)
        await pilot.press("u")
        await settle(pilot)
        assert _review_dues() == before


async def test_u_takes_the_easy_days_back_with_the_cards(svc: Services, tui_clock: FixedClock) -> None:
    """`u` after setting easy days: the cards back where they were and the easy days as they were
    (it left "Sat 0.5 · Sun 0" on screen and in the library: issue 34, item 13.5)."""
    due_one_a_day(svc, tui_clock)
    before = _per_day(tui_clock)
    async with running(svc) as (app, pilot):
        await pilot.press("w")
        await settle(pilot)
        await pilot.press("e", *["backspace"] * 20, *"1 1 1 1 1 0.5 0", "enter")
        await settle(pilot)
        assert "Sat 0.5 · Sun 0" in screen_text(app)
        await pilot.press("u")
        await settle(pilot)
        assert _per_day(tui_clock) == before
        assert (
            "Easy days (load per weekday): Mon 1 · Tue 1 · Wed 1 · Thu 1 · Fri 1 · Sat 1 · Sun 1"
            in screen_text(app)
        )
        assert q("SELECT COUNT(*) FROM setting WHERE key = 'easy_days'") == [(0,)]


async def test_a_move_that_fails_says_why_and_leaves_no_line_saying_it_is_under_way(
    svc: Services, tui_clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write lock held past the busy timeout: the easy day's move is not done, the app's
    notice says the database is busy, and "Moving cards …" does not stay on the screen."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "300")
    due_one_a_day(svc, tui_clock)
    before = _per_day(tui_clock)
    async with running(svc, notifications=True) as (app, pilot):
        await pilot.press("w")
        await settle(pilot)
        easy = ["1"] * 7
        easy[(tui_clock.now().date() + timedelta(days=2)).weekday()] = "0"
        with write_locked():
            await pilot.press("e", *["backspace"] * 20, *" ".join(easy), "enter")
            await settle(pilot)
        await settle(pilot)
        assert _per_day(tui_clock) == before
        assert any("busy" in str(n.message) for n in app._notifications)
        assert "Moving cards off the easy days …" not in screen_text(app)
