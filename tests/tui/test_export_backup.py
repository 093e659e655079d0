"""Export and backup from the app, by keys: the Library's Export dialog writes a file in its named
worker with progress, Back up now (Library, Settings) copies the library, the automatic backup
runs after the first frame, and a failed export says why and the app goes on."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

from conftest import SIZE, confirm_all, make_app, opened, running, settle
from textual.widgets import Input, Select, Static

from core.host import paths
from core.services.backup import list_backups
from core.services.bootstrap import Services
from tui.modals.export import ExportModal
from tui.screens.library import LibraryScreen
from tui.screens.settings import SettingsScreen


async def _open_export(pilot) -> ExportModal:  # type: ignore[no-untyped-def]
    await opened(pilot, "l", LibraryScreen)
    return await opened(pilot, "x", ExportModal)


async def test_export_dialog_writes_an_anki_package_and_a_json_file(
    samples: Services, tmp_path: Path
) -> None:
    confirm_all(samples)
    async with running(samples) as (_, pilot):
        modal = await _open_export(pilot)
        modal.query_one("#export-path", Input).value = str(tmp_path / "mine.apkg")
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        status = str(modal.query_one("#export-status", Static).render())
        assert "Wrote" in status and "mine.apkg" in status, status
        assert "collection.anki2" in zipfile.ZipFile(tmp_path / "mine.apkg").namelist()
        modal.query_one("#export-format", Select).value = "json"
        await pilot.pause()
        assert modal.query_one("#export-path", Input).value.endswith("mine.json")
        modal.query_one("#export-scope", Select).value = "all"
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        data = json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))
        assert len(data["tables"]["article"]["rows"]) == 4
        await opened(pilot, "escape", LibraryScreen)


async def test_a_failed_export_says_why_and_the_app_goes_on(samples: Services, tmp_path: Path) -> None:
    for article in samples.library.articles():  # units to export (with none, nothing is tried)
        samples.curation.accept_all_valid(article.id)
    async with running(samples) as (app, pilot):
        modal = await _open_export(pilot)
        modal.query_one("#export-path", Input).value = str(tmp_path / "no" / "such" / "folder" / "x.apkg")
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        status = str(modal.query_one("#export-status", Static).render())
        assert "Not exported" in status and "does not exist" in status, status
        assert app.is_running and not modal.running
        assert any("does not exist" in str(n.message) for n in app._notifications)


async def test_back_up_now_from_library_and_settings(samples: Services) -> None:
    samples.config = replace(samples.config, backup_auto="off")
    async with running(samples) as (app, pilot):
        assert list_backups(samples.config) == []  # off: nothing at start-up
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot, rounds=6)
        assert [b.kind for b in list_backups(samples.config)] == ["manual"]
        await pilot.press("escape", "comma")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("ctrl+b")
        await settle(pilot, rounds=6)
        assert [b.kind for b in list_backups(samples.config)] == ["manual", "manual"]
        assert "Backed up" in str(app.screen.query_one("#settings-backup", Static).render())


async def test_the_automatic_backup_runs_after_the_first_frame(samples: Services) -> None:
    app = make_app(samples)  # default: daily
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, rounds=6)
        assert [b.kind for b in list_backups(samples.config)] == ["auto"]
        assert all(b.path.parent == paths.backups_dir() for b in list_backups(samples.config))


async def test_the_export_dialog_refuses_the_library_file(samples: Services) -> None:
    """Typing the library's own path in the Export dialog is refused with the reason; the library
    stays whole and the app goes on (the dialog writes through the exports' one door)."""
    confirm_all(samples)
    async with running(samples) as (app, pilot):
        modal = await _open_export(pilot)
        modal.query_one("#export-format", Select).value = "json"
        await pilot.pause()
        modal.query_one("#export-path", Input).value = str(paths.database_path())
        await pilot.press("ctrl+s")
        await settle(pilot, rounds=6)
        status = str(modal.query_one("#export-status", Static).render())
        assert "Not exported" in status and "is your MemoryRush library" in status, status
        assert app.is_running and not modal.running
    assert paths.database_path().read_bytes().startswith(b"SQLite format 3\x00")
    assert len(samples.library.articles()) == 4


async def test_back_up_now_removes_a_killed_backups_file_and_says_so(samples: Services) -> None:
    """A backup killed half way left its hidden partial file in backups/ (issue 34, item 13.2):
    Back up now removes it, as `memoryrush backup` does, and the notice counts it."""
    samples.config = replace(samples.config, backup_auto="off")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a writer that is gone
    paths.backups_dir().mkdir(parents=True, exist_ok=True)
    left = paths.backups_dir() / f".memoryrush-manual-20260101-000000.sqlite3.{dead.pid}.partial"
    left.write_bytes(b"SQLite format 3\x00" + bytes(4096))
    async with running(samples) as (app, pilot):
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot, rounds=6)
        assert not left.exists()
        said = [str(n.message) for n in app._notifications]
        assert any("Backed up" in s and "removed 1 unfinished backup left by a crash" in s for s in said), (
            said
        )
