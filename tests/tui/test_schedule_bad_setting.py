"""A vacation or easy days stored wrong (a library edited by hand, a bad copy): answering a card
still works, the Schedule screen opens and says what it left out and how to clear it, a new
easy-day setting is kept and moves cards, and `V` clears the vacations. Nothing is a dead end."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from conftest import SIZE, make_app, screen_text, settle
from test_review_support import due_one_a_day, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.browse.schedule import day_rule, stored_days
from core.storage.db import write_transaction
from core.storage.review import cards as review_repo
from scheduler.workload import NO_LOAD_CHANGE
from tui.screens.schedule import ScheduleScreen

BAD_VACATIONS = [["2026-13-45", "soon"], "x", ["0001-01-01", "9999-12-31"], ["2026-12-24", "2026-12-26"]]


def _store(key: str, value: object) -> None:
    with write_transaction():
        review_repo.put_setting(key, value)


@pytest.mark.parametrize("easy", [[1, 1], "fast", [2, 1, 1, 1, 1, 1, 1], {"a": 1}])
def test_a_setting_stored_wrong_is_left_out_and_said(svc: Services, easy: object) -> None:
    _store("easy_days", easy)
    _store("vacations", BAD_VACATIONS)
    rule, spans, problems = stored_days()
    assert rule.easy_days == NO_LOAD_CHANGE  # every weekday a full day
    assert [(a.isoformat(), b.isoformat()) for a, b in spans] == [("2026-12-24", "2026-12-26")]
    assert len(problems) == 4  # the easy days and three vacations, each said
    assert all("cannot be read" in p for p in problems)
    assert sum("V clears the vacations" in p for p in problems) == 3
    assert day_rule() == rule
    assert svc.schedule.vacations() == [("2026-12-24", "2026-12-26")]


async def test_a_card_is_answered_and_the_schedule_mended_by_keys(
    svc: Services, tui_clock: FixedClock
) -> None:
    due_one_a_day(svc, tui_clock)
    _store("vacations", BAD_VACATIONS[:2])
    card = q("SELECT id FROM card WHERE queue = 2 ORDER BY due LIMIT 1")[0][0]
    svc.review.answer(card, 3)  # load balancing reads the vacations: not raised
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ScheduleScreen) and app.screen.forecast is not None
        shown = screen_text(app)
        assert "the stored vacation ['2026-13-45', 'soon'] cannot be read" in shown
        assert "V clears the vacations" in shown
        today = tui_clock.now().date()
        easy = ["1"] * 7
        easy[(today + timedelta(days=2)).weekday()] = "0"
        await pilot.press("e", *["backspace"] * 20, *" ".join(easy), "enter")
        await settle(pilot)
        assert json.loads(q("SELECT value_json FROM setting WHERE key = 'easy_days'")[0][0]) == [
            float(x) for x in easy
        ]
        assert app.screen.forecast.due[2] == 0  # the cards moved all the same
        await pilot.press("V")
        await settle(pilot)
        assert json.loads(q("SELECT value_json FROM setting WHERE key = 'vacations'")[0][0]) == []
        assert "cannot be read" not in screen_text(app)
