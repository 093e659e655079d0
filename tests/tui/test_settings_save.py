"""Settings as a new user meets it: typing goes to the first field, and "saved" is only said
when something was saved."""

from __future__ import annotations

from conftest import opened, running, screen_text, settle

from core.host import paths
from core.host.config import load_config
from core.services.bootstrap import Services
from tui.screens.settings import SettingsScreen


async def test_typing_on_open_goes_to_the_first_field_and_is_saved(svc: Services) -> None:
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "comma", SettingsScreen)
        await pilot.press(*"0.85", "ctrl+s")  # the first field is focused, its text selected
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Settings saved (desired retention 0.85)") for m in said), said
    assert load_config(paths.config_path()).desired_retention == 0.85
    assert svc.config.desired_retention == 0.85


async def test_saving_without_a_change_says_nothing_changed(svc: Services) -> None:
    async with running(svc, notifications=True) as (app, pilot):
        await pilot.press("comma")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "Nothing changed" in said and "saved" not in said
        assert "Nothing changed" in screen_text(app)
    assert not paths.config_path().exists()


async def test_a_config_file_broken_meanwhile_is_a_notice_not_a_crash(svc: Services) -> None:
    async with running(svc, notifications=True) as (app, pilot):
        await pilot.press("comma")
        await settle(pilot)
        paths.config_path().parent.mkdir(parents=True, exist_ok=True)
        paths.config_path().write_text("[review\n", encoding="utf-8")  # edited by hand meanwhile
        await pilot.press(*"0.85", "ctrl+s")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications if n.severity == "error"]
        assert said and said[0].startswith("Not saved: could not write"), said
        assert isinstance(app.screen, SettingsScreen)
    assert paths.config_path().read_text(encoding="utf-8") == "[review\n"
