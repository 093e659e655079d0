"""Issue 31 for Schedule, Settings, the theme and the Export dialog: each key that changes the
library or the settings runs a command in a worker. The test clears the recorders once the app
is up, presses the writing keys, checks each write happened (database, config.toml) and that
none of them was on the UI thread (SQLite statements and config.toml alike)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import confirm_all, opened, running, settle, until
from test_review_support import due_one_a_day, q
from textual.command import CommandList
from textual.widgets import Input
from writes_support import commands_run, ui_thread_config_writes  # noqa: F401 (fixtures)

from core.host import paths
from core.host.clock import FixedClock
from core.host.config import load_config
from core.services import preferences
from core.services.bootstrap import Services
from tui.modals.export import ExportModal
from tui.screens.library import LibraryScreen
from tui.screens.schedule import ScheduleScreen
from tui.screens.settings import SettingsScreen


def _due(card: int) -> int:
    return int(q("SELECT due FROM card WHERE id = ?", card)[0][0])  # type: ignore[call-overload]


async def test_schedules_keys_write_nothing_on_the_ui_thread(
    svc: Services,
    tui_clock: FixedClock,
    ui_thread_writes: list[str],
    ui_thread_config_writes: list[Path],  # noqa: F811
) -> None:
    cards = due_one_a_day(svc, tui_clock)
    today = tui_clock.now().date()
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "w", ScheduleScreen)
        ui_thread_writes.clear()
        await pilot.press("e", *["backspace"] * 20, *"1 1 1 1 1 0.5 0.5", "enter")
        await settle(pilot)
        assert q("SELECT value_json FROM setting WHERE key = 'easy_days'") == [
            ("[1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5]",)
        ]
        await pilot.press("v", *f"{today + timedelta(days=3)}", "enter")
        await settle(pilot)
        assert q("SELECT value_json FROM setting WHERE key = 'vacations'") != [("[]",)]
        await pilot.press("V")  # clear the vacations
        await settle(pilot)
        assert q("SELECT value_json FROM setting WHERE key = 'vacations'") == [("[]",)]
        tomorrow = tui_clock.now().timestamp() + 86400
        assert _due(cards[0]) > tui_clock.now().timestamp()
        await pilot.press("a", "enter")  # review ahead: tomorrow's cards to today
        await settle(pilot)
        assert _due(cards[0]) <= tui_clock.now().timestamp()
        await pilot.press("p", *["backspace"] * 3, "2", "enter")  # postpone today's by 2 days
        await settle(pilot)
        assert _due(cards[0]) > tomorrow
        await pilot.press("u")  # the postpone taken back
        await settle(pilot)
        assert _due(cards[0]) <= tui_clock.now().timestamp()
        moved = _due(cards[1])
        await pilot.press("r", *["backspace"] * 10, *"0.8", "enter")  # saved, then the question
        await settle(pilot)
        await pilot.press("y")  # reschedule
        await settle(pilot)
        assert _due(cards[1]) != moved
        await pilot.press("O")  # too few reviews: said in the box, nothing written
        await settle(pilot)
        assert isinstance(app.screen, ScheduleScreen) and screen.forecast is not None
    assert load_config(paths.config_path()).desired_retention == 0.8
    assert ui_thread_writes == []
    assert ui_thread_config_writes == []


async def test_settings_save_and_a_theme_chosen_write_config_off_the_ui_thread(
    svc: Services,
    ui_thread_config_writes: list[Path],  # noqa: F811
    commands_run: list[str],  # noqa: F811
) -> None:
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "comma", SettingsScreen)
        await pilot.press(*"0.85", "ctrl+s")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Settings saved (desired retention 0.85)") for m in said), said
        await pilot.press("escape")  # the reschedule question: no
        await settle(pilot)
        await pilot.press("escape")  # back home
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        for words in ("theme", "high-contrast"):
            await pilot.press(*words)
            await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
            await pilot.press("enter")
            await settle(pilot)
        assert app.theme == "memoryrush-high-contrast"
    saved = load_config(paths.config_path())
    assert saved.desired_retention == 0.85 and saved.theme == "memoryrush-high-contrast"
    assert ui_thread_config_writes == []
    assert commands_run == ["SaveSettings", "ChangeSetting"]


async def test_the_export_and_its_folder_are_commands_off_the_ui_thread(
    samples: Services,
    tmp_path: Path,
    ui_thread_writes: list[str],
    ui_thread_config_writes: list[Path],  # noqa: F811
    commands_run: list[str],  # noqa: F811
) -> None:
    confirm_all(samples)
    out = tmp_path / "exports"
    out.mkdir()
    async with running(samples) as (_, pilot):
        await opened(pilot, "l", LibraryScreen)
        modal = await opened(pilot, "x", ExportModal)
        ui_thread_writes.clear()
        modal.query_one("#export-path", Input).value = str(out / "mine.apkg")
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        assert (out / "mine.apkg").exists() and not modal.running
    assert load_config(paths.config_path()).export_folder == str(out)
    assert ui_thread_writes == [] and ui_thread_config_writes == []
    assert commands_run == ["Export", "ChangeSetting"]


async def test_a_second_ctrl_s_waits_for_the_save_on_its_way(
    svc: Services,
    monkeypatch: pytest.MonkeyPatch,
    commands_run: list[str],  # noqa: F811
) -> None:
    """The save is a worker's now: until it is back, ctrl+s says so instead of saving again."""
    held = threading.Event()
    save = preferences.save_config

    def slow_disk(path: Path, config: Any) -> None:
        held.wait(10)
        save(path, config)

    monkeypatch.setattr(preferences, "save_config", slow_disk)
    async with running(svc, notifications=True) as (app, pilot):
        screen = await opened(pilot, "comma", SettingsScreen)
        await pilot.press(*"0.85", "ctrl+s")
        await pilot.pause(0.1)
        assert screen.saving
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any("Saving the settings" in str(n.message) for n in app._notifications)
        held.set()
        await settle(pilot)
        assert not screen.saving
    assert commands_run == ["SaveSettings"]
    assert load_config(paths.config_path()).desired_retention == 0.85
