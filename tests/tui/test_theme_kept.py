"""The palette's Theme choice is kept (issue 32: it was lost on restart): saved as the `theme`
setting in config.toml, and the next start opens in it."""

from __future__ import annotations

from conftest import SIZE, running, settle, until
from textual.command import CommandList, CommandPalette

from core.host import paths
from core.host.config import load_config
from core.services.bootstrap import Services
from tui.app import MemoryRushApp

CHOSEN = "memoryrush-high-contrast"


async def _pick(pilot: object, words: str) -> None:
    """Type `words` in the open palette; enter once its best match is listed."""
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.press(*words)  # type: ignore[attr-defined]
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot)


async def test_the_palettes_theme_choice_is_saved_and_used_at_the_next_start(svc: Services) -> None:
    async with running(svc) as (app, pilot):
        await pilot.press("ctrl+p")
        await settle(pilot)
        await _pick(pilot, "theme")
        assert isinstance(app.screen, CommandPalette)  # the theme list
        await _pick(pilot, "high-contrast")
        assert app.theme == CHOSEN
    saved = load_config(paths.config_path())
    assert saved.theme == CHOSEN
    assert f'theme = "{CHOSEN}"' in paths.config_path().read_text(encoding="utf-8")
    svc.config = load_config(paths.config_path())  # what the next start reads
    again = MemoryRushApp(svc)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == CHOSEN


async def test_a_theme_picked_then_the_one_before_picked_again_keeps_the_one_before(svc: Services) -> None:
    """Two picks in a row, faster than config.toml is written: the last one is kept (whether a
    pick is already the setting is asked when its save runs, not when it is queued)."""
    async with running(svc) as (app, pilot):
        first = app.theme
        app.theme = CHOSEN
        app.theme = first
        await settle(pilot)
    assert load_config(paths.config_path()).theme == first
