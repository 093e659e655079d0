"""The trash: what will be purged when (units, soonest first; deleted articles above them),
restore or purge now. Reached from Browse (w) and Home."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from core.domain.browse import BulkAction, RowKey, Selection
from core.text.words import plural
from tui.safe import cell, content, notify
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
from tui.widgets.row_table import RowTable
from tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from tui.screens.bulk import BulkUndone


def _day(epoch: int) -> str:
    return datetime.fromtimestamp(epoch).strftime("%Y-%m-%d")


class TrashScreen(BaseScreen):
    """A table of deleted articles (a…) and trashed units (u…)."""

    HELP_NAME = "Trash"
    BINDINGS = [
        Binding("r", "restore", "Restore", id="trash.restore"),
        Binding("P", "purge", "Purge now", id="trash.purge"),
        Binding("u", "undo", "Undo", id="trash.undo"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="trash-status")
        yield RowTable(id="trash-table", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one(RowTable)
        table.add_column("What", key="what")
        table.add_column("Article", key="article")
        table.add_column("Trashed", key="trashed")
        table.add_column("Purged on", key="purge")
        table.add_column("Cards", key="cards")
        table.focus()

    def refresh_data(self) -> None:
        table = self.query_one(RowTable)
        row = table.cursor_row
        table.clear()
        with self.reporting("reading the trash"):
            browse = self.services.browse
            articles = browse.deleted_articles()
            for article_id, title, at in articles:
                table.add_row(
                    cell("deleted article"),
                    cell(title),
                    cell(_day(at)),
                    cell(_day(at + 30 * 86400)),
                    cell(""),
                    key=f"a{article_id}",
                )
            units = browse.trash()
            for entry in units:
                table.add_row(
                    cell(entry.content[:80]),
                    cell(entry.article_title[:30]),
                    cell(_day(entry.trashed_at)),
                    cell(_day(entry.purge_at)),
                    cell(entry.cards),
                    key=f"u{entry.unit_id}",
                )
            table.measure_new_rows()
            total = browse.trash_count()
            self.query_one("#trash-status", Static).update(
                content(
                    f"{plural(len(articles), 'deleted article')} · {plural(total, 'unit')} in the trash "
                    "(purged for good 30 days after; r restores, P purges now)"
                )
            )
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def _key(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_restore(self) -> None:
        key = self._key()
        if key is None:
            return
        with self.reporting("restoring"):
            browse = self.services.browse
            if key.startswith("a"):
                result = browse.restore_article(int(key[1:]))
                notify(self.app, f"Article restored with {plural(result.units, 'unit')}")
            else:
                browse.act(BulkAction.RESTORE, Selection(keys=(RowKey(None, int(key[1:])),)))
                notify(self.app, "Restored · u undoes it")
            self.refresh_data()

    def action_purge(self) -> None:
        from tui.modals.prompt import Confirm

        key = self._key()
        if key is None or not key.startswith("u"):
            notify(
                self.app,
                "Pick a unit (a deleted article is purged with its units, 30 days on)",
                severity="warning",
            )
            return

        def answered(yes: bool | None) -> None:
            if yes:
                with self.reporting("purging"):
                    self.services.browse.purge([int(key[1:])])
                    notify(self.app, "Purged for good")
                    self.refresh_data()

        self.app.push_screen(
            Confirm(
                "Purge this unit for good?", "Its cards and review history go with it; this cannot be undone."
            ),
            answered,
        )

    def action_undo(self) -> None:
        from tui.screens.bulk import undo_bulk

        undo_bulk(self)

    def on_bulk_undone(self, message: BulkUndone) -> None:
        from tui.screens.bulk import say_undone

        if say_undone(self.app, message.result):
            self.refresh_data()
