"""The Import screen's folder tree: hidden files and folders (a leading dot: .git, .venv) are
left out until `.` shows them, and backspace goes up to the parent folder (the stock tree could
not leave the folder it started in). The folder shown is the tree's border title."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.binding import Binding

from tui.safe import content
from tui.widgets.guarded import SafeDirectoryTree


class ImportTree(SafeDirectoryTree):
    """A DirectoryTree with hidden entries off by default and a way up."""

    BINDINGS = [
        Binding("backspace", "parent", "Parent folder", id="import.parent"),
        Binding("full_stop", "toggle_hidden", "Show hidden", id="import.hidden"),
    ]

    def __init__(self, path: str | Path, *, id: str | None = None) -> None:
        super().__init__(path, id=id)
        self.show_hidden = False

    def on_mount(self) -> None:
        self._title()

    def _title(self) -> None:
        self.border_title = content(self.path, single_line=True)

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        """Folders and the files import reads (by suffix); hidden ones only after `.`."""
        from core.ingest.formats import SUPPORTED_SUFFIXES

        return [
            p
            for p in paths
            if (self.show_hidden or not p.name.startswith("."))
            and (p.suffix.lower() in SUPPORTED_SUFFIXES or _is_dir(p))
        ]

    async def action_parent(self) -> None:
        here = Path(self.path).resolve()
        if here.parent != here:
            self.path = here.parent
            self._title()

    async def action_toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._title()
        await self.reload()


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # unreadable or vanished: not offered
        return False
