"""Library: every article (title, paragraphs, proposed / confirmed units, added); open one.

Rows are loaded a page at a time as the cursor nears the end, so a huge library paints at once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import DataTable, Static

from core.domain import ArticleInfo
from core.domain.model import Renamed
from core.services.commands.library import Rename
from core.text.words import plural
from tui import runner
from tui.safe import cell, notify
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
from tui.widgets.row_table import RowTable
from tui.widgets.title_bar import TitleBar

PAGE = 60  # rows per page: a screenful and a bit; more load as the cursor nears the end


class LibraryScreen(BaseScreen):
    """A table of articles, newest first."""

    HELP_NAME = "Library"
    BINDINGS = [
        Binding("enter", "open", "Open", id="library.open"),
        Binding("t", "triage", "Triage article", id="library.triage"),
        Binding("r", "rename", "Rename", id="library.rename"),
        Binding("i", "import", "Import", id="library.import"),
        Binding("x", "export", "Export", id="library.export"),
        Binding("b", "app.backup", "Back up now", id="library.backup"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        table = RowTable(id="library-table", cursor_type="row", zebra_stripes=True)
        yield table
        from core.ingest.formats import SUPPORTED_SUFFIXES  # the readers' own list (as the import tree's)

        formats = " ".join(SUPPORTED_SUFFIXES)
        yield Static(
            Content.assemble(
                ("The library is empty. ", "bold"),
                f"Press i to import articles ({formats}), or run memoryrush import PATH.",
            ),
            id="library-empty",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Title", key="title")
        table.add_column("Paragraphs", key="paragraphs")
        table.add_column("Proposed", key="proposed")
        table.add_column("Confirmed", key="confirmed")
        table.add_column("Added", key="added")
        self._total = 0
        self._loaded = 0
        table.focus()

    def refresh_data(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        self._loaded = 0
        self._total = 0
        with self.reporting("counting articles"):
            self._total = self.services.library.article_count()
        self._load_page(max(PAGE, row + 1))
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))
        self.sub_title = plural(self._total, "article")
        empty = self.query_one("#library-empty", Static)
        empty.display = self._total == 0 and table.row_count == 0

    def _load_page(self, size: int = PAGE) -> None:
        articles: list[ArticleInfo] = []
        with self.reporting("listing articles"):
            articles = self.services.library.articles(size, self._loaded)
        table = self.query_one(RowTable)
        for a in articles:
            added = datetime.fromtimestamp(a.added_at, UTC).strftime("%Y-%m-%d")
            table.add_row(
                cell(f"{a.title}  (source missing)" if a.source_missing else a.title),
                cell(a.paragraph_count),
                cell(a.proposed),
                cell(a.confirmed),
                cell(added),
                key=str(a.id),
            )
        table.measure_new_rows()
        self._loaded += len(articles)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= self._loaded - 10 and self._loaded < self._total:
            self._load_page()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def _current_id(self) -> int | None:
        key = self.query_one(RowTable).cursor_key()
        return None if key is None else int(key)

    def _article(self, article_id: int | None) -> ArticleInfo | None:
        """The article of this id as the library holds it now (None: no id, or gone)."""
        if article_id is None:
            return None
        with self.reporting("reading the article"):
            return self.services.library.article(article_id)

    def action_open(self) -> None:
        article_id = self._current_id()
        if article_id is not None:
            self.open_article(article_id)

    def action_triage(self) -> None:
        from tui.screens.triage import TriageScreen

        article_id = self._current_id()
        if article_id is not None:
            self.app.push_screen(TriageScreen(article_id))

    def action_rename(self) -> None:
        """Ask the new title (the current one filled in); "" gives back the source's title."""
        from tui.modals.prompt import Ask

        article = self._article(self._current_id())
        if article is None:
            return
        source = article.source_title
        hint = (
            f"empty: the source's title, {source}" if source else "the library shows it; a reimport keeps it"
        )

        def done(title: str | None) -> None:
            if title is not None:
                refresh = lambda _: self.refresh_data()  # noqa: E731
                runner.run(self, Rename(article.id, title), self.ArticleRenamed, failed=refresh)

        self.app.push_screen(Ask("Rename the article", value=article.title, placeholder=hint), done)

    class ArticleRenamed(runner.Done[Renamed]):
        """The article was renamed (r). Handled by `on_library_screen_article_renamed`."""

    def on_library_screen_article_renamed(self, message: ArticleRenamed) -> None:
        renamed = message.result
        if renamed.before != renamed.title:
            notify(self.app, f"Renamed to {renamed.title} (r again to change it back)")
        self.refresh_data()

    def action_export(self) -> None:
        from tui.modals.export import ExportModal

        article_id = self._current_id()
        article = self._article(article_id)
        self.app.push_screen(
            ExportModal(self.services, article_id=article_id, article_title=article.title if article else "")
        )

    def action_import(self) -> None:
        from tui.screens.import_screen import ImportScreen

        self.app.push_screen(ImportScreen())
