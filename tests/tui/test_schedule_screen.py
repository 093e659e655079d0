"""Schedule walked by keys: set an easy day and a vacation and see the forecast move; the
database has the new due dates and the library's settings (issue 17's "Done when")."""

from __future__ import annotations

from datetime import timedelta

from conftest import SIZE, make_app, screen_text, settle
from test_review_support import due_one_a_day, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.screens.schedule import ScheduleScreen

DAY = 86400


def _per_day(clock: FixedClock) -> list[int]:
    today = int(clock.now().timestamp()) // DAY
    counts = dict(q("SELECT due / 86400 - ?, COUNT(*) FROM card WHERE queue = 2 GROUP BY 1", today))
    return [int(counts.get(d, 0)) for d in range(60)]  # type: ignore[call-overload]


async def test_an_easy_day_and_a_vacation_move_the_forecast(svc: Services, tui_clock: FixedClock) -> None:
    due_one_a_day(svc, tui_clock)
    before = _per_day(tui_clock)
    assert before[1:11] == [2] * 10
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ScheduleScreen) and screen.forecast is not None
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
