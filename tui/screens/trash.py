"""The trash: what will be purged when (units, soonest first; deleted articles above them),
restore or purge now. Reached from Browse (w) and Home. Restore and purge are commands
(core/services/commands/bulk.py) run in a worker: the list is read again when they are done,
and until then r, P and u wait (the row under the cursor may be the one on its way out)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from core.domain.browse import BulkAction, BulkResult, RowKey, Selection
from core.services.commands.bulk import BulkAct, Purge, RestoreArticle
from core.text.words import plural
from tui import runner
from tui.safe import cell, content, notify
from tui.screens.base import BaseScreen
from tui.screens.bulk import BulkUndone, in_bulk_worker, say_undone, undo_bulk
from tui.widgets.key_bar import KeyBar
from tui.widgets.row_table import RowTable
from tui.widgets.title_bar import TitleBar


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

    class Restored(Message):
        """A deleted article (`article`) or a unit came back. Handled by
        `on_trash_screen_restored`."""

        def __init__(self, article: bool, result: BulkResult) -> None:
            super().__init__()
            self.article = article
            self.result = result

    class Purged(runner.Done[int]):
        """Units were purged for good. Handled by `on_trash_screen_purged`."""

    WAIT_FOR_WRITE = frozenset({"restore", "purge", "undo"})

    def __init__(self) -> None:
        super().__init__()
        self.writing = False  # a restore or purge is on its way (its keys wait)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if self.writing and action in self.WAIT_FOR_WRITE else True

    def why_not(self, action: str) -> str | None:
        return (
            "Wait: the last restore or purge is still being written"
            if action in self.WAIT_FOR_WRITE
            else None
        )

    def _writing(self, on: bool) -> None:
        self.writing = on
        self.refresh_bindings()

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
        return self.query_one(RowTable).cursor_key()

    def action_restore(self) -> None:
        key = self._key()
        if key is None:
            return
        article = key.startswith("a")
        if article:
            command: RestoreArticle | BulkAct = RestoreArticle(int(key[1:]))
        else:
            command = BulkAct(BulkAction.RESTORE, Selection(keys=(RowKey(None, int(key[1:])),)))
        self._writing(True)
        in_bulk_worker(self, command, partial(self.Restored, article), lambda _: self._writing(False))

    def on_trash_screen_restored(self, message: Restored) -> None:
        self._writing(False)
        if message.article:
            notify(self.app, f"Article restored with {plural(message.result.units, 'unit')}")
        else:
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
                self._writing(True)
                runner.run(self, Purge((int(key[1:]),)), self.Purged, failed=lambda _: self._writing(False))

        self.app.push_screen(
            Confirm(
                "Purge this unit for good?", "Its cards and review history go with it; this cannot be undone."
            ),
            answered,
        )

    def on_trash_screen_purged(self, message: Purged) -> None:
        self._writing(False)
        notify(self.app, "Purged for good")
        self.refresh_data()

    def action_undo(self) -> None:
        undo_bulk(self)

    def on_bulk_undone(self, message: BulkUndone) -> None:
        if say_undone(self.app, message.result):
            self.refresh_data()
