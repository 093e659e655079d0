"""The Import tree: hidden folders (.git, .venv) left out until `.`, and backspace goes up to
the parent folder (the stock tree showed them all and could not leave its start folder)."""

from __future__ import annotations

from pathlib import Path

from conftest import running, settle, until

from core.services.bootstrap import Services
from tui.widgets.import_tree import ImportTree


def _names(tree: ImportTree) -> list[str]:
    return [str(node.label) for node in tree.root.children]


async def test_hidden_entries_are_shown_on_request_and_backspace_goes_up(
    svc: Services, tmp_path: Path
) -> None:
    start = tmp_path / "notes"
    for folder in (".git", ".venv", "chapters"):
        (start / folder).mkdir(parents=True)
    (start / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    (start / ".draft.md").write_text("# B\n\ntext\n", encoding="utf-8")
    (tmp_path / "elsewhere.txt").write_text("x\n\ny\n", encoding="utf-8")
    async with running(svc) as (app, pilot):
        from tui.screens.import_screen import ImportScreen

        app.push_screen(ImportScreen(start))
        await settle(pilot)
        tree = app.screen.query_one(ImportTree)
        await until(pilot, lambda: tree.root.children)  # the tree loads its folder in a worker
        assert _names(tree) == ["chapters", "a.md"]
        await pilot.press("ctrl+t", "full_stop")  # focus the tree, show hidden
        await until(pilot, lambda: ".git" in _names(tree))  # loaded again, hidden ones too
        assert _names(tree) == [".git", ".venv", "chapters", ".draft.md", "a.md"]
        await pilot.press("full_stop", "backspace")
        await until(pilot, lambda: "elsewhere.txt" in _names(tree))  # the folder above, loaded
        assert Path(tree.path) == tmp_path.resolve()
        assert "notes" in _names(tree) and "elsewhere.txt" in _names(tree)
        assert str(tmp_path.resolve()) in str(tree.border_title)


async def test_the_import_log_lists_skipped_files_with_the_reason(svc: Services, tmp_path: Path) -> None:
    from textual.widgets import Input, Log

    from tui.screens.import_screen import ImportScreen

    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nSpaced repetition spreads reviews over time.\n", encoding="utf-8")
    (folder / "b.odt").write_text("not read: an OpenDocument file", encoding="utf-8")
    async with running(svc) as (app, pilot):
        app.push_screen(ImportScreen(tmp_path))
        await settle(pilot)
        app.screen.query_one(Input).value = str(folder)
        await pilot.press("ctrl+r")
        for _ in range(100):
            await settle(pilot)
            if not app.screen.running:  # type: ignore[attr-defined]
                break
        lines = list(app.screen.query_one(Log).lines)
        assert any(
            line.startswith("- skipped") and "b.odt: unsupported file type .odt" in line for line in lines
        ), lines
        assert any(line.startswith("+ imported") and "a.md" in line for line in lines), lines
