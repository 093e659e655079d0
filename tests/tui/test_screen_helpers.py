"""Browse's keys that ask first, driven by keys: they reach the BrowseActions the screen holds
(issue 31: a helper in place of a base class) through `by_actions`, their parameters with them.
(Settings' and Schedule's RescheduleOffer: test_schedule_screen.py.)"""

from __future__ import annotations

import json
from datetime import UTC

from conftest import opened, running, settle
from test_review_support import add_units, graduate, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.screens.browse import BrowseScreen


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
