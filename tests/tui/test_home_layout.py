"""Home at 80x24 and at 200x60: everything fits the small terminal; the large one gets a year of
heatmap, the week ahead and the latest articles, the block centred."""

from __future__ import annotations

from conftest import running, screen_text, settle
from test_snapshots import confirm_and_review

from core.services.bootstrap import Services


async def test_home_fits_80x24(samples: Services) -> None:
    confirm_and_review(samples, 3)
    async with running(samples, size=(80, 24)) as (app, _):
        lines = screen_text(app).split("\n")
        shown = "\n".join(lines)
        for text in ("Review today", "Waiting for you", "3 cards due", "Streak 1 day", "Sun", "less"):
            assert text in shown, (text, shown)
        assert "last 35 weeks" in shown
        assert "The week ahead" not in shown  # only on a tall terminal


async def test_home_uses_a_large_terminal(samples: Services) -> None:
    confirm_and_review(samples, 3)
    async with running(samples, size=(200, 60)) as (app, _):
        lines = screen_text(app).split("\n")
        shown = "\n".join(lines)
        assert "last 53 weeks" in shown and "The week ahead" in shown and "Added lately" in shown
        assert "Photosynthesis: how plants store sunlight" in shown
        card = next(line for line in lines if "Review today" in line)
        left = len(card) - len(card.lstrip())
        assert left > 30  # centred, not stuck to the left edge
        rows = [i for i, line in enumerate(lines) if line.strip()]
        assert rows[1] > 5  # (row 0 is the title bar) the block sits in the middle, not at the top


async def test_home_first_frame_is_styled_as_a_restyle_would_leave_it(samples: Services) -> None:
    """Home's first resume does not restyle its widgets (they were styled when mounted, just
    before): restyling them now leaves the picture as it was."""
    async with running(samples, size=(80, 24)) as (app, pilot):
        before = app.export_screenshot()
        app.update_styles(app.screen)
        app.screen.refresh(layout=True)
        await settle(pilot)
        assert app.export_screenshot() == before


async def test_a_terminal_grown_tall_gets_the_week_ahead(samples: Services) -> None:
    """The week ahead and the latest articles are made when the terminal grows tall (a small
    one never shows them, and they are not built for it)."""
    confirm_and_review(samples, 3)
    async with running(samples, size=(80, 24)) as (app, pilot):
        assert not app.screen.query("#home-more")
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        shown = screen_text(app)
        assert "The week ahead" in shown and "Photosynthesis: how plants store sunlight" in shown


async def test_each_door_of_home_opens_its_screen(samples: Services) -> None:
    """Every door's key opens its screen (a list of our own, not Home's table), and escape
    comes back to Home."""
    from tui.screens.home import HomeScreen

    doors = {
        "t": "TriageScreen",
        "i": "ImportScreen",
        "l": "LibraryScreen",
        "b": "BrowseScreen",
        "w": "ScheduleScreen",
        "s": "StatsScreen",
        "comma": "SettingsScreen",
    }
    async with running(samples) as (app, pilot):
        for key, name in doors.items():
            await pilot.press(key)
            await settle(pilot)
            assert type(app.screen).__name__ == name, key
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen), key
