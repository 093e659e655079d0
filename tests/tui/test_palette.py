"""The command palette as a reader sees it: our actions with what they do, each once; no widget
internals; a Screenshot that lands in a folder that exists and says where."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import running, settle

from core.services.bootstrap import Services
from tui.keys import ABOUT
from tui.screens.help import sections


def _commands(app: object) -> list[tuple[str, str]]:
    return [(c.title, c.help) for c in app.get_system_commands(app.screen)]  # type: ignore[attr-defined]


async def test_every_screen_offers_its_actions_once_with_what_they_do(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        assert ("Review", "Start today's review session  (r)") in _commands(app)
        for keys in ((), ("l",), ("enter",), ("escape", "escape", "t")):
            for key in keys:
                await pilot.press(key)
            await settle(pilot)
            commands = _commands(app)
            titles = [title for title, _ in commands]
            assert len(titles) == len(set(titles)), titles  # "Quit" was there twice
            assert titles.count("Quit") == 1 and "Keys" not in titles
            for title, about in commands:
                assert not about.startswith("key "), (title, about)  # "key escape — HomeScreen"
                assert about and "Screen" not in about and "RowTable" not in about, (title, about)
            assert not {"Cursor left", "Focus Next", "Copy selected text", "Select"} & set(titles)


def test_every_binding_says_what_it_does() -> None:
    walked = [b for _, bindings in sections() for b in bindings]
    assert all(b.id for b in walked), [b.key for b in walked if not b.id]
    assert set(ABOUT) == {b.id for b in walked}, set(ABOUT) ^ {b.id for b in walked}


async def test_screenshot_without_a_downloads_folder_lands_in_home_and_says_where(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # no ~/Downloads
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    async with running(svc, notifications=True) as (app, pilot):
        screenshot = next(c for c in app.get_system_commands(app.screen) if c.title == "Screenshot")
        assert str(home) in screenshot.help
        screenshot.callback()
        await pilot.pause(0.3)
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
    saved = list(home.glob("*.svg"))
    assert len(saved) == 1 and saved[0].read_text(encoding="utf-8").startswith("<svg")
    assert said == [f"Screenshot saved: {saved[0]}"], said
