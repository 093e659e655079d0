"""Import: a path field with a directory tree; the `Import` command, run in a named thread worker
(tui/runner.py), imports with progress and cancel, reporting each file (imported / already imported / refused and why) as it
goes. Cancel sets the run's stop flag: the import stops inside the file it is on and says what
it did (the worker is not cancelled, so its result still comes)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import DirectoryTree, Input, Log, ProgressBar, Static

from core.domain import ImportOutcome
from core.services.commands.importing import Import
from core.text import sanitize
from tui import runner
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.widgets.guarded import SafeInput, SafeLog
from tui.widgets.import_tree import ImportTree
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

MARK = {"imported": "+", "new_version": "+", "already": "=", "refused": "!", "skipped": "-"}


class ImportScreen(BaseScreen):
    """Choose files or a folder and import them without blocking the UI."""

    HELP_NAME = "Import"
    BINDINGS = [
        Binding("ctrl+r", "run_import", "Import", id="import.run"),
        Binding("ctrl+x", "cancel_import", "Cancel import", id="import.cancel"),
        Binding("ctrl+t", "toggle_tree", "Focus tree", id="import.tree"),
    ]

    @dataclass
    class ArticleImported(Message):
        """A file was handled (imported, new version or already there). Handled by `on_import_screen_article_imported`."""

        outcome: ImportOutcome
        done: int
        total: int

    class ImportRefused(ArticleImported):
        """A file was refused, or skipped as another file type; `outcome.message` says why.
        Handled by `on_import_screen_import_refused`."""

    @dataclass
    class ImportFinished(Message):
        """The worker finished (or was cancelled). Handled by `on_import_screen_import_finished`."""

        outcomes: list[ImportOutcome]
        cancelled: bool

    def __init__(self, start: Path | None = None) -> None:
        super().__init__()
        self.start_dir = start or Path.cwd()
        self.running = False
        self.stop = runner.StopEvent()  # set by Cancel; read by the import inside each file

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="import-body"):
            yield SafeInput(
                placeholder="Path to a file or folder (text, Markdown, HTML, EPUB, PDF, RST, DOCX) — enter to import",
                id="import-path",
            )
            with Horizontal(id="import-panes"):
                yield ImportTree(self.start_dir, id="import-tree")
                yield SafeLog(id="import-log", highlight=False)
            yield ProgressBar(id="import-progress", show_eta=False)
            yield Static(Content("Ready."), id="import-status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.query_one(Input).value = str(event.path)

    def on_directory_tree_directory_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        self.query_one(Input).value = str(event.path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_run_import()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_import":
            return None if self.running else True
        if action == "cancel_import":
            return True if self.running else None
        return True

    def why_not(self, action: str) -> str | None:
        if action == "run_import":
            return "An import is running: ctrl+x cancels it after the current file"
        if action == "cancel_import":
            return "No import is running"
        return None

    def action_toggle_tree(self) -> None:
        tree = self.query_one(DirectoryTree)
        (self.query_one(Input) if tree.has_focus else tree).focus()

    def action_run_import(self) -> None:
        raw = self.query_one(Input).value.strip()
        if not raw or self.running:
            return
        path = Path(raw).expanduser()
        if not path.exists():
            notify(self.app, f"{raw}: no such file or folder", severity="warning")
            return
        self.running = True
        self.stop = runner.StopEvent()
        self.refresh_bindings()
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.query_one("#import-status", Static).update(
            Content(f"Importing {sanitize(str(path), single_line=True)} …")
        )
        self.import_files([path], self.stop)

    def action_cancel_import(self) -> None:
        """The import stops inside the file it is on (its stop flag) and says what it did."""
        self.stop.set()
        self.query_one("#import-status", Static).update(Content("Cancelling …"))

    def import_files(self, paths: list[Path], stop: runner.StopEvent) -> None:
        """In a worker: import and post one message per file; never touches widgets. `stop` is
        this run's own flag: Cancel sets it and the import stops inside the file."""

        def progress(done: int, total: int, outcome: ImportOutcome) -> None:
            kind = self.ImportRefused if outcome.status in ("refused", "skipped") else self.ArticleImported
            self.post_message(kind(outcome, done, total))

        command = Import(tuple(paths), progress=progress, stop=stop)
        runner.run(
            self, command, partial(self._finished, stop), group="import", exclusive=True, failed=self._stopped
        )

    def _finished(self, stop: runner.StopEvent, outcomes: list[ImportOutcome]) -> ImportFinished:
        return self.ImportFinished(outcomes, stop.is_set())

    def _log(self, outcome: ImportOutcome, done: int, total: int) -> None:
        name = Path(outcome.path).name
        line = f"{MARK.get(outcome.status, '?')} {outcome.status:<11} {name}: {outcome.message}"
        self.query_one(Log).write_line(sanitize(line, single_line=True))
        self.query_one(ProgressBar).update(total=total, progress=done)

    def on_import_screen_article_imported(self, message: ArticleImported) -> None:
        self._log(message.outcome, message.done, message.total)

    def on_import_screen_import_refused(self, message: ImportRefused) -> None:
        self._log(message.outcome, message.done, message.total)

    def on_import_screen_import_finished(self, message: ImportFinished) -> None:
        counts: dict[str, int] = {}
        for o in message.outcomes:
            counts[o.status] = counts.get(o.status, 0) + 1
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no files found"
        verb = "Cancelled" if message.cancelled else "Finished"
        self.query_one("#import-status", Static).update(Content(f"{verb}: {summary}."))
        notify(self.app, f"Import {verb.lower()}: {summary}")
        self._stop()

    def _stopped(self, error: Exception) -> None:
        self.query_one("#import-status", Static).update(Content("Import stopped (see the notice)."))
        self._stop()

    def _stop(self) -> None:
        self.running = False
        self.refresh_bindings()
