"""The Export dialog (issue 32, item 6): an article with no confirmed unit is said to have
nothing to export and no empty package is written; the path starts in the last folder an
export went to (remembered in the config), else Downloads, else home; the focused field is
drawn in the theme's accent."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import confirm_all, opened, running, settle
from textual.color import Color
from textual.widgets import Input, Select, Static

from core.host import paths
from core.host.config import load_config
from core.services.bootstrap import Services
from tui.modals.export import ExportModal
from tui.screens.library import LibraryScreen


@pytest.fixture
def downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of our own with a Downloads folder (platformdirs reads $HOME on Linux)."""
    home = tmp_path / "person"
    (home / "Downloads").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home / "Downloads"


async def _open_export(pilot) -> ExportModal:  # type: ignore[no-untyped-def]
    await opened(pilot, "l", LibraryScreen)
    return await opened(pilot, "x", ExportModal)


async def test_an_article_without_confirmed_units_writes_nothing(
    samples: Services, tmp_path: Path, downloads: Path
) -> None:
    async with running(samples) as (app, pilot):
        modal = await _open_export(pilot)
        target = tmp_path / "empty.apkg"
        modal.query_one("#export-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        status = str(modal.query_one("#export-status", Static).render())
        assert "Nothing to export" in status and "no confirmed unit" in status, status
        assert not target.exists() and not list(tmp_path.glob("*.apkg*"))
        assert any("Nothing to export" in str(n.message) for n in app._notifications)
        assert not modal.running


async def test_the_path_starts_in_downloads_then_in_the_last_folder_used(
    samples: Services, tmp_path: Path, downloads: Path
) -> None:
    confirm_all(samples)
    out = tmp_path / "exports"
    out.mkdir()
    async with running(samples) as (_, pilot):
        modal = await _open_export(pilot)
        path = modal.query_one("#export-path", Input)
        assert Path(path.value) == downloads / "memoryrush.apkg"
        path.value = str(out / "mine.apkg")
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        assert (out / "mine.apkg").exists()
        await pilot.press("escape")
        await settle(pilot)
        modal = await _open_export(pilot)
        assert Path(modal.query_one("#export-path", Input).value) == out / "memoryrush.apkg"
    assert load_config(paths.config_path()).export_folder == str(out)


def near(a: Color, b: Color) -> bool:
    """The same colour give or take rounding (the theme's variables are computed)."""
    return max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b)) <= 3


async def test_the_focused_field_is_drawn_in_the_accent(samples: Services, downloads: Path) -> None:
    async with running(samples) as (app, pilot):
        modal = await _open_export(pilot)
        accent = Color.parse(app.current_theme.accent or "")
        path = modal.query_one("#export-path", Input)
        assert path.has_focus and near(path.styles.border_top[1], accent)
        fmt = modal.query_one("#export-format", Select)
        fmt.focus()
        await settle(pilot)
        assert not near(path.styles.border_top[1], accent)
        assert near(fmt.query_one("SelectCurrent").styles.border_top[1], accent)
