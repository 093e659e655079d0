"""The title bar and key bar (one widget each, in place of Textual's Header and Footer), and what
the app does once its first frame is shown."""

from __future__ import annotations

import gc

from conftest import SIZE, make_app, screen_text, settle

from core.services.bootstrap import Services
from tui.app import SCREEN_STYLES
from tui.screens.library import LibraryScreen
from tui.screens.review import ReviewScreen
from tui.widgets.key_bar import KeyBar


def bottom_line(text: str) -> str:
    return text.splitlines()[-1]


async def test_key_bar_shows_the_keys_and_a_click_presses_one(samples: Services) -> None:
    app = make_app(samples)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        line = bottom_line(screen_text(app))
        for shown in ("r Review", "t Triage", "l Library", "? Help", "^p palette"):
            assert shown in line, line
        x = line.index("l Library")
        await pilot.click(KeyBar, offset=(x + 2, 0))
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen)
        top = screen_text(app).splitlines()[0]
        assert "MemoryRush — 4 articles" in top, top
        assert "t Triage article" in bottom_line(screen_text(app))


async def test_a_disabled_key_is_shown_but_a_click_does_nothing(samples: Services) -> None:
    for article in samples.library.articles():
        samples.curation.accept_all_valid(article.id)
    app = make_app(samples, start="review")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        line = bottom_line(screen_text(app))
        assert "3 Good" in line, line  # shown, dimmed: rating waits for the reveal
        card = screen.item.card.id
        await pilot.click(KeyBar, offset=(line.index("3 Good"), 0))
        await settle(pilot)
        assert screen.item is not None and screen.item.card.id == card and not screen.revealed
        await pilot.click(KeyBar, offset=(line.index("space Reveal") + 1, 0))
        await settle(pilot)
        assert screen.revealed


async def test_after_the_first_frame_the_collector_runs_and_every_screen_has_its_rules(
    samples: Services,
) -> None:
    was = gc.isenabled()
    gc.disable()  # as `memoryrush` leaves it for the start (tui.cli.main.start_up)
    try:
        app = make_app(samples)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert app.first_frame_shown
            assert gc.isenabled()
            assert app.stylesheet.has_source(str(SCREEN_STYLES))
            await pilot.press("l")
            await settle(pilot)
            table = app.screen.query_one("#library-table")
            assert table.styles.height is not None and table.styles.height.value == 1  # 1fr, screens.tcss
    finally:
        gc.enable() if was else gc.disable()
