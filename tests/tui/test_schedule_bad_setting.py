"""A vacation or easy days stored wrong (a library edited by hand, a bad copy): answering a card
still works, the Schedule screen opens and says what it left out and how to clear it, a new
easy-day setting is kept and moves cards, and `V` clears the vacations. Nothing is a dead end."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest
from conftest import running, screen_text, settle
from test_review_support import due_one_a_day, q

from core.host import paths
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
    async with running(svc) as (app, pilot):
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ScheduleScreen) and app.screen.forecast is not None
        shown = screen_text(app)
        assert "the stored vacation ['2026-13-45', 'soon'] cannot be read" in shown
        assert "V clears the vacations" in shown
        await pilot.press("e", *["backspace"] * 20, *"1 1", "enter")  # refused: nothing written
        await settle(pilot)
        await pilot.press("v", *"2026-13-01", "enter")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Easy days not set: give seven factors") for m in said)
        assert any(m.startswith("Vacation not added: write a vacation as") for m in said)
        assert review_repo.get_setting("easy_days") is None
        assert review_repo.get_setting("vacations") == BAD_VACATIONS[:2]
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


def test_a_setting_that_is_not_json_is_said_and_a_card_answered(svc: Services, tui_clock: FixedClock) -> None:
    due_one_a_day(svc, tui_clock)
    with write_transaction():
        review_repo.put_setting("vacations", [])
        review_repo.put_setting("easy_days", [1] * 7)
    con = sqlite3.connect(paths.database_path())
    con.execute(
        """UPDATE setting SET value_json = '[["2026-12-24", ' WHERE key IN ('vacations', 'easy_days')"""
    )
    con.commit()
    con.close()
    rule, spans, problems = stored_days()
    assert (rule.easy_days, spans) == (NO_LOAD_CHANGE, ())
    assert problems == (
        "the stored easy days cannot be read: left out (e sets them again)",
        "the stored vacations cannot be read: left out (V clears the vacations)",
    )
    card = q("SELECT id FROM card WHERE queue = 2 ORDER BY due LIMIT 1")[0][0]
    svc.review.answer(card, 3)


@pytest.mark.parametrize(
    "item",
    [
        ["2026-01-01", ""],
        {"2026-01-01": 1, "2026-01-02": 1},
        ["2026-01-01", "2026-01-02", "2026-01-03"],
        [None, None],
    ],
)
def test_what_only_looks_like_a_vacation_is_none(svc: Services, item: object) -> None:
    _store("vacations", [item])
    _, spans, problems = stored_days()
    assert spans == () and len(problems) == 1


def test_seven_factors_in_one_string_are_no_easy_days(svc: Services) -> None:
    _store("easy_days", ["1 1 1 1 1 1 1"])
    rule, _, problems = stored_days()
    assert rule.easy_days == NO_LOAD_CHANGE and len(problems) == 1


def test_a_vacation_added_keeps_the_stored_ones_that_cannot_be_read(svc: Services) -> None:
    typo = ["2026-12-24", "2026-12-3l"]
    _store("vacations", [typo, ["2026-05-01", "2026-05-03"], ["2026-05-01", "2026-05-03"]])
    svc.schedule.add_vacation("2026-08-01")
    assert review_repo.get_setting("vacations") == [
        ["2026-05-01", "2026-05-03"],
        ["2026-08-01", "2026-08-01"],
        typo,  # kept for the reader to mend or clear (V)
    ]
