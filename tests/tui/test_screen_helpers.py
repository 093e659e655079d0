"""The helpers screens hold in place of a base class (issue 31), driven by keys: Settings'
RescheduleOffer (Schedule's is walked in test_schedule_screen.py) and the keys of Browse that
ask first, which reach the screen's BrowseActions through `by_actions` with their parameters."""

from __future__ import annotations

import json
from datetime import UTC

from conftest import opened, running, screen_text, settle
from test_review_support import add_units, due_one_a_day, graduate, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.screens.browse import BrowseScreen
from tui.screens.settings import SettingsScreen


async def test_a_retention_saved_in_settings_offers_the_reschedule_that_u_in_browse_undoes(
    svc: Services, tui_clock: FixedClock
) -> None:
    due_one_a_day(svc, tui_clock)
    before = q("SELECT id, due FROM card WHERE queue = 2 ORDER BY id")
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "comma", SettingsScreen)
        await pilot.press(*"0.8", "ctrl+s")  # the first field, desired retention, its text selected
        await settle(pilot)
        shown = screen_text(app)
        assert "Reschedule your review cards for the new retention?" in shown
        assert "20 review cards re-timed for 80% (from 90%)" in shown
        await pilot.press("y")
        await settle(pilot)
        after = q("SELECT id, due FROM card WHERE queue = 2 ORDER BY id")
        assert all(a[1] > b[1] for a, b in zip(after, before, strict=True))  # type: ignore[operator]
        said = [str(n.message) for n in app._notifications]
        assert "Rescheduled 20 cards · u in Browse or Schedule undoes it" in said, said
        await pilot.press("escape")
        await opened(pilot, "b", BrowseScreen)
        await pilot.press("u")
        await settle(pilot)
        assert q("SELECT id, due FROM card WHERE queue = 2 ORDER BY id") == before


async def test_browse_keys_that_ask_first_act_on_the_cursor_row(svc: Services, tui_clock: FixedClock) -> None:
    svc.browse.tz = UTC
    unit = add_units(1, 1, now=int(tui_clock.now().timestamp()))[0]
    graduate(svc, tui_clock, int(q("SELECT id FROM card")[0][0]))  # type: ignore[call-overload]
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "b", BrowseScreen)
        await pilot.press("t", *"ripe", "enter")
        await settle(pilot)
        assert "ripe" in json.loads(str(q("SELECT tags_json FROM unit WHERE id = ?", unit)[0][0]))
        await pilot.press("T", *"ripe", "enter")
        await settle(pilot)
        assert "ripe" not in json.loads(str(q("SELECT tags_json FROM unit WHERE id = ?", unit)[0][0]))
        await pilot.press("D", *["backspace"] * 5, "3", "enter")
        await settle(pilot)
        today = int(tui_clock.now().timestamp()) // 86400
        assert [int(d) // 86400 - today for (d,) in q("SELECT due FROM card")] == [3]  # type: ignore[call-overload]
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == "Rescheduled: 1 card · u undoes it", said
        await pilot.press("D", *["backspace"] * 5, *"soon", "enter")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == "'soon' is not a number of days", said
