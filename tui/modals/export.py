"""Export: pick a format and a place, then a named thread worker writes it with progress.

Opened from the Library (the article under the cursor, or the whole library). The `Export`
command runs in the worker and posts past-tense messages; the dialog stays open to show what
was written (and any note, e.g. a Markdown file left alone because you edited it). With no
confirmed unit to export it writes nothing and says so (issue 32: an empty .apkg said nothing).
The path starts in the last folder an export went to (the config's [export] folder, saved by the
`ChangeSetting` command in a worker after each export), else in Downloads, else home.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Label, ProgressBar, Select, Static

from core.domain.export import ExportFilter, ExportResult
from core.host import paths
from core.host.config import Config
from core.services.bootstrap import Services
from core.services.commands.exporting import Export
from core.services.commands.settings import ChangeSetting, NotSaved
from core.services.export.runner import FORMATS, SUFFIX
from tui import runner
from tui.modals.once import Modal
from tui.safe import content, notify
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar


def default_target(fmt: str, stem: str, folder: Path) -> Path:
    return folder / f"{stem}{SUFFIX[fmt]}"


class ExportModal(Modal[None]):
    """Format, scope and target; ctrl+s (or enter) exports in a worker named "export"."""

    BINDINGS = [
        Binding("ctrl+s", "export", "Export", id="export.run"),
        Binding("escape", "close", "Close", id="export.close"),
    ]

    @dataclass
    class Progressed(Message):
        """Rows written so far. Handled by `on_export_modal_progressed`."""

        done: int
        total: int

    @dataclass
    class Declined(Message):
        """Nothing was written (no unit to export). Handled by `on_export_modal_declined`."""

        why: str

    @dataclass
    class Exported(Message):
        """The export was written. Handled by `on_export_modal_exported`."""

        result: ExportResult

    @dataclass
    class FolderRemembered(Message):
        """The export folder's save came back. Handled by `on_export_modal_folder_remembered`."""

        result: Config | NotSaved

    def __init__(self, services: Services, *, article_id: int | None = None, article_title: str = "") -> None:
        super().__init__()
        self.services = services
        self.article_id = article_id
        self.article_title = article_title
        self.running = False

    def compose(self) -> ComposeResult:
        folder = paths.exports_dir(self.services.config.export_folder)
        with Vertical(id="export-dialog"):
            yield Label(Content.styled("Export", "bold"))
            with Vertical(classes="export-field"):
                yield Label(Content("Format"))
                yield Select(
                    [(Content(label), key) for key, label in FORMATS.items()],
                    value="anki",
                    allow_blank=False,
                    id="export-format",
                )
            with Vertical(classes="export-field"):
                yield Label(Content("What"))
                scopes = [(Content("The whole library (confirmed units)"), "all")]
                if self.article_id is not None:
                    scopes.insert(
                        0, (content(f"This article: {self.article_title}", single_line=True), "article")
                    )
                yield Select(scopes, value=scopes[0][1], allow_blank=False, id="export-scope")
            with Vertical(classes="export-field"):
                yield Label(Content("Save to (a file; a folder for Markdown)"))
                yield SafeInput(str(default_target("anki", "memoryrush", folder)), id="export-path")
            yield ProgressBar(id="export-progress", show_eta=False)
            yield Static(Content("ctrl+s export · escape close"), id="export-status")
        yield KeyBar()

    def on_mount(self) -> None:
        """The bar hidden until an export runs, the path focused: by query, not query_one, as
        a dialog closed or quit as it opens is mounted without its children (re-attack: NoMatches
        'ProgressBar', exit 1, at a quit)."""
        self.query(ProgressBar).set(display=False)
        for path in self.query("#export-path").results(Input):
            path.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "export-format":
            path = self.query_one("#export-path", Input)
            current = Path(path.value.strip() or "memoryrush").expanduser()
            stem = current.name.removesuffix(current.suffix) if current.suffix else current.name
            path.value = str(current.with_name(stem + SUFFIX[str(event.value)]))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_export()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export":
            return None if self.running else True
        return True

    def action_export(self) -> None:
        raw = self.query_one("#export-path", Input).value.strip()
        if not raw or self.running:
            return
        fmt = str(self.query_one("#export-format", Select).value)
        scope = str(self.query_one("#export-scope", Select).value)
        articles = (self.article_id,) if scope == "article" and self.article_id is not None else ()
        self.running = True
        self.refresh_bindings()
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.query_one("#export-status", Static).update(Content("Exporting …"))
        export = Export(fmt, Path(raw).expanduser(), ExportFilter(article_ids=articles), self._progressed)
        runner.run(self, export, self._outcome, group="export", exclusive=True, failed=self._not_exported)

    def _progressed(self, done: int, total: int) -> None:
        """From the worker's thread: a message (never a widget touched there)."""
        self.post_message(self.Progressed(done, total))

    def _outcome(self, result: ExportResult | str) -> Message:
        return self.Declined(result) if isinstance(result, str) else self.Exported(result)

    def on_export_modal_progressed(self, message: Progressed) -> None:
        self.query_one(ProgressBar).update(total=max(1, message.total), progress=message.done)

    def on_export_modal_declined(self, message: Declined) -> None:
        self.query_one("#export-status", Static).update(content(message.why))
        self.query_one(ProgressBar).display = False
        notify(self.app, message.why, severity="warning")
        self._stop()

    def on_export_modal_exported(self, message: Exported) -> None:
        r = message.result
        parts = [f"{r.articles} articles", f"{r.units} units"] + ([f"{r.cards} cards"] if r.cards else [])
        text = f"Wrote {r.path}: {', '.join(parts)}." + "".join(f"\n{n}" for n in r.notes)
        self.query_one("#export-status", Static).update(content(text))
        bar = self.query_one(ProgressBar)
        bar.update(total=1, progress=1)
        notify(self.app, f"Exported to {r.path}")
        self._remember(Path(r.path).parent)
        self._stop()

    def _remember(self, folder: Path) -> None:
        """The folder the next export starts in: the config's [export] folder, saved in a worker."""
        if str(folder) == self.services.config.export_folder:
            return
        change = ChangeSetting("export_folder", str(folder))
        runner.run(self, change, self.FolderRemembered, group="settings")

    def on_export_modal_folder_remembered(self, message: FolderRemembered) -> None:
        if isinstance(message.result, NotSaved):
            notify(
                self.app, f"remembering the export folder: {message.result.why}", severity="error", timeout=8
            )

    def _not_exported(self, error: Exception) -> None:
        """After the app's notice of the worker's failure: the dialog says it too, and may run again."""
        self.query_one("#export-status", Static).update(content(f"Not exported: {error}"))
        self._stop()

    def _stop(self) -> None:
        self.running = False
        self.refresh_bindings()

    def action_close(self) -> None:
        if self.running:
            notify(self.app, "The export is still running; it finishes in the background", severity="warning")
        self.dismiss(None)
