"""The title bar and key bar (one widget each, in place of Textual's Header and Footer), and what
the app does once its first frame is shown."""

from __future__ import annotations

import gc

from conftest import confirm_all, running, screen_text, settle

from core.services.bootstrap import Services
from tui.app import SCREEN_STYLES
from tui.screens.library import LibraryScreen
from tui.screens.review import ReviewScreen
from tui.widgets.key_bar import KeyBar


def bottom_line(text: str) -> str:
    return text.splitlines()[-1]


async def test_key_bar_shows_the_keys_and_a_click_presses_one(samples: Services) -> None:
    async with running(samples) as (app, pilot):
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
    confirm_all(samples)
    async with running(samples, start="review") as (app, pilot):
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


async def test_the_review_footer_shows_whole_keys_at_80_and_every_shown_key_at_160(samples: Services) -> None:
    """At 80 columns the footer keeps the keys that fit, each whole ("v Sele" was cut before),
    and the palette key; at 160 every key Review shows fits. Pin and select-in-evidence are in
    Help and the palette only."""
    confirm_all(samples)
    for width in (80, 160):
        async with running(samples, start="review", size=(width, 30)) as (app, _):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            line = bottom_line(screen_text(app))
            keys = line.split("▏")[0].split()
            shown = [b for b in screen.BINDINGS if b.show]
            whole = [f"{b.key} {b.description}".replace("space ", "") for b in shown]
            assert "^p palette" in line and "Pin" not in line and "Select" not in line, line
            if width == 160:
                for label in ("space Reveal", "1 Again", "4 Easy", "i Card info", "? Help"):
                    assert label in line, line
            else:
                assert "esc Back" in line and "3 Good" in line and "u Undo" in line, line
            # every shown binding is there whole or not at all: no label cut at the edge
            for label in whole:
                words = label.split()
                if words[-1] in keys:
                    assert " ".join(words) in " ".join(keys), (label, line)
            assert keys[-1] in {w.split()[-1] for w in whole} | {"Quit", "Search", "Help"}, line


async def test_after_the_first_frame_the_collector_runs_and_every_screen_has_its_rules(
    samples: Services,
) -> None:
    was = gc.isenabled()
    gc.disable()  # as `memoryrush` leaves it for the start (tui.cli.main.start_up)
    try:
        async with running(samples) as (app, pilot):
            assert app.first_frame_shown
            assert gc.isenabled()
            assert app.stylesheet.has_source(str(SCREEN_STYLES))
            await pilot.press("l")
            await settle(pilot)
            table = app.screen.query_one("#library-table")
            assert table.styles.height is not None and table.styles.height.value == 1  # 1fr, screens.tcss
    finally:
        gc.enable() if was else gc.disable()
