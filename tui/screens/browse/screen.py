"""Browse's screen: the filter line, the table of rows, what the cursor row asks.

The table holds only the rows seen so far: a page (core.services.browse.PAGE rows) is read by
keyset after the last one as the cursor nears the end, in a named worker, so a million rows
paint as fast as a hundred (bench/bench_browse.py). The count comes from its own worker, started
once the first page is painted so it does not compete with that paint. What the keys do to the
rows is in actions.py (a helper the screen holds, `self.actions`); how a row becomes cells,
rows.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Input, Static
from textual.worker import Worker

from core.domain.browse import BrowseFilter, BrowsePage, BrowseRow, BrowseSort, Column, RowKey, Selection
from core.domain.errors import Cancelled
from core.services.commands.bulk import LiftEndedBurials
from core.text.words import plural
from tui import runner
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.screens.browse.actions import BrowseActions, by_actions
from tui.screens.browse.rows import MARK, cells, mark
from tui.screens.bulk import BulkUndone, say_undone
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar
from tui.widgets.row_table import RowTable
from tui.widgets.title_bar import TitleBar

NEAR_END = 20  # rows from the end at which the next page is read
DETAIL_AFTER_S = 0.08
# How long opening Browse waits for its first page before painting without it: a page comes
# in ~5 ms on a 1M-card library, and painting first means three paints instead of one (the
# empty table, its layout once the columns are measured, then the rows): 100-150 ms more.
FIRST_PAGE_WAIT_S = 0.15
SORTS = tuple(Column)


class BrowseScreen(BaseScreen):
    """Every unit and card: filter line, table, what the cursor row asks."""

    HELP_NAME = "Browse"
    BINDINGS = [
        Binding("f", "filter", "Filter", id="browse.filter"),
        Binding("o", "sort", "Sort", id="browse.sort"),
        Binding("O", "reverse", "Reverse", id="browse.reverse", show=False),
        Binding("space", "pick", "Pick", id="browse.pick"),
        Binding("a", "take_all", "All of filter", id="browse.all"),
        Binding("i", "card_info", "Card info", id="browse.info"),
        Binding("enter", "open", "Open", id="browse.open", show=False),
        Binding("x", "act('suspend')", "Suspend", id="browse.suspend"),
        Binding("X", "act('unsuspend')", "Unsuspend", id="browse.unsuspend", show=False),
        Binding("b", "act('bury')", "Bury", id="browse.bury", show=False),
        Binding("B", "act('unbury')", "Unbury", id="browse.unbury", show=False),
        Binding("p", "act('pin')", "Pin", id="browse.pin", show=False),
        Binding("P", "act('unpin')", "Unpin", id="browse.unpin", show=False),
        Binding("d", "act('trash')", "Trash", id="browse.trash"),
        Binding("r", "act('restore')", "Restore", id="browse.restore"),
        Binding("j", "act('reject')", "Reject", id="browse.reject"),
        Binding("J", "act('confirm')", "Un-reject", id="browse.confirm", show=False),
        Binding("k", "act('keep')", "Keep (source changed)", id="browse.keep", show=False),
        Binding("F", "act('forget')", "Forget", id="browse.forget", show=False),
        Binding("D", "set_due", "Set due", id="browse.set_due", show=False),
        Binding("t", "tag", "Tag", id="browse.tag", show=False),
        Binding("T", "untag", "Untag", id="browse.untag", show=False),
        Binding("A", "delete_article", "Delete article", id="browse.delete_article", show=False),
        Binding("m", "move_deck", "Move to deck…", id="browse.move_deck", show=False),
        Binding("w", "trash_view", "Trash view", id="browse.trash_view"),
        Binding("u", "undo", "Undo", id="browse.undo"),
    ]

    def __init__(self, query: str = "") -> None:
        super().__init__()
        self._query = query
        self._filter = BrowseFilter()
        self._sort = BrowseSort()
        self._after: tuple[object, ...] | None = None
        self._rows: dict[str, BrowseRow] = {}
        self._picked: set[str] = set()
        self._whole = False  # the whole filter is taken
        self._generation = 0  # a page read for an older filter or sort is dropped
        self._shown_generation = -1  # the generation whose first page is on screen
        self._loading = False
        self._total: int | None = None
        self._counting = runner.StopEvent()  # set: the count running is for an older filter
        self._detail_timer: Timer | None = None
        self._page_worker: Worker[BrowsePage] | None = None  # the latest page's
        self._page: BrowsePage | None = None  # the latest page shown
        self.actions = BrowseActions(self, self._selection, self._current)  # what the keys do to the rows

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield SafeInput(
            self._query,
            placeholder="filter: words, r<0.8, is:suspended, tag:x, type:claim, due<7, added:30 …",
            id="browse-filter",
        )
        yield Static(id="browse-status")
        yield RowTable(id="browse-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="browse-detail")
        yield KeyBar()

    async def on_mount(self) -> None:
        super().on_mount()
        table = self.query_one(RowTable)
        table.add_column("", key=MARK)
        for column in Column:
            table.add_column(column.label, key=column.value)
        # Burials that ended are lifted first (a write: in a worker; it never waits for a held
        # lock, so it is back in ~1 ms), then the first page is read with the queues it left.
        await runner.result_within(runner.run(self, LiftEndedBurials()), FIRST_PAGE_WAIT_S)
        self._apply_query(self._query)
        table.focus()
        # The first page, if it comes soon, is shown before this returns (the screen lays out
        # with it): its PageRead would wait behind this handler; handled after, it finds the page
        # shown.
        if self._page_worker is not None:
            page = await runner.result_within(self._page_worker, FIRST_PAGE_WAIT_S)
            if page is not None:
                self._show_page(self._generation, page)

    def refresh_data(self) -> None:
        if self._rows:  # back from another screen (an article, the trash): the rows as they are now
            self._reload()

    # --- filter, sort, pages ---------------------------------------------------------------

    def _apply_query(self, line: str) -> None:
        with self.reporting("reading the filter"):
            parsed = self.services.browse.parse(line)
            self._filter = parsed.filter
            for problem in parsed.problems:
                notify(self.app, problem, severity="warning")
        self._whole = False
        self._picked.clear()
        self._reload()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._apply_query(event.value)
        self.query_one(RowTable).focus()

    def _reload(self) -> None:
        self._generation += 1
        self._after = None
        self._total = None
        table = self.query_one(RowTable)
        self._keep_row = table.cursor_row
        table.clear()
        self._rows.clear()
        self._counting.set()  # the count of the old filter stops
        self._load_page(self._generation, None)
        self._show_status()

    @dataclass
    class PageRead(Message):
        """A page of rows was read for `generation` (a newer filter or sort drops it). Handled
        by `on_browse_screen_page_read`."""

        generation: int
        page: BrowsePage

    @dataclass
    class Counted(Message):
        """The rows of `generation`'s filter were counted (None: the count was stopped for a
        newer one). Handled by `on_browse_screen_counted`."""

        generation: int
        total: int | None

    def _load_page(self, generation: int, after: tuple[object, ...] | None) -> None:
        read = partial(self.services.browse.page, self._filter, self._sort, after)
        read_page = partial(self.PageRead, generation)
        self._page_worker = runner.start(
            self, "reading the rows", read, read_page, group="browse-page", exclusive=True
        )

    def _count(self, generation: int, f: BrowseFilter, stop: runner.StopEvent) -> None:
        # The filter comes with the call: this runs after a refresh, when the screen may already
        # hold the next filter (counting that one under its predecessor's set stop made a text
        # filter's count fail with "interrupted", and the notice held the UI thread while the
        # new page was read: bench/bench_browse.py's `memory`). A set stop reads nothing.
        browse = self.services.browse

        def count() -> int | None:
            try:
                return browse.count(f, stop)
            except Cancelled:
                return None

        counted = partial(self.Counted, generation)
        runner.start(self, "counting the rows", count, counted, group="browse-count", exclusive=True)

    def on_browse_screen_page_read(self, message: PageRead) -> None:
        self._show_page(message.generation, message.page)

    def on_browse_screen_counted(self, message: Counted) -> None:
        if message.total is not None:
            self._show_count(message.generation, message.total)

    def _show_page(self, generation: int, page: BrowsePage) -> None:
        if generation != self._generation or page is self._page:
            return
        self._page = page
        table = self.query_one(RowTable)
        for row in page.rows:
            key = str(row.key)
            if key in self._rows:
                continue
            self._rows[key] = row
            table.add_row(*cells(row, key in self._picked or self._whole), key=key)
        table.measure_new_rows()
        self._after = page.after
        self._loading = False
        if self._shown_generation != generation:  # the first page is up: the count once it is painted
            self._shown_generation = generation
            self._counting = runner.StopEvent()
            self.call_after_refresh(self._count, generation, self._filter, self._counting)
        keep = getattr(self, "_keep_row", 0)
        if keep and table.cursor_row < keep < table.row_count:
            table.move_cursor(row=keep)
            self._keep_row = 0
        self._show_status()
        self._show_detail()

    def _show_count(self, generation: int, total: int) -> None:
        if generation == self._generation:
            self._total = total
            self._show_status()

    def _show_status(self) -> None:
        shown = "counting…" if self._total is None else plural(self._total, "row")
        order = f"sorted by {self._sort.column.label} {'↓' if self._sort.descending else '↑'}"
        taken = (
            "all of the filter taken"
            if self._whole
            else (f"{len(self._picked)} picked" if self._picked else "actions apply to the cursor row")
        )
        self.query_one("#browse-status", Static).update(content(f"{shown} · {order} · {taken}"), layout=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # the cursor row's question once the cursor rests: a held arrow key paints only the table
        if self._detail_timer is not None:
            self._detail_timer.stop()
        self._detail_timer = self.set_timer(DETAIL_AFTER_S, self._show_detail)
        table = self.query_one(RowTable)
        if self._after is not None and not self._loading and event.cursor_row >= table.row_count - NEAR_END:
            self._loading = True
            self._load_page(self._generation, self._after)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.column_key.value in tuple(c.value for c in Column):
            column = Column(event.column_key.value)
            descending = not self._sort.descending if column == self._sort.column else False
            self._sort = BrowseSort(column, descending)
            self._reload()

    def _current(self) -> BrowseRow | None:
        key = self.query_one(RowTable).cursor_key()
        return None if key is None else self._rows.get(key)

    def _show_detail(self) -> None:
        row = self._current()
        text = (
            ""
            if row is None
            else (f"Q: {row.content}" if row.key.card_id is not None else "no card (not confirmed)")
        )
        if row is not None and row.tags:
            text += f" · tags: {', '.join(row.tags)}"
        if row is not None and row.deck_id is not None:
            text += f" · in the deck of {row.deck_title} (from {row.article_title}; m moves it)"
        self.query_one("#browse-detail", Static).update(content(text, single_line=True), layout=False)

    def action_filter(self) -> None:
        self.query_one("#browse-filter", Input).focus()

    def action_sort(self) -> None:
        nxt = SORTS[(SORTS.index(self._sort.column) + 1) % len(SORTS)]
        self._sort = BrowseSort(nxt, descending=False)
        self._reload()

    def action_reverse(self) -> None:
        self._sort = BrowseSort(self._sort.column, not self._sort.descending)
        self._reload()

    # --- picking -----------------------------------------------------------------------------

    def action_pick(self) -> None:
        row = self._current()
        if row is None:
            return
        key = str(row.key)
        self._whole = False
        self._picked.symmetric_difference_update({key})
        table = self.query_one(RowTable)
        table.update_cell(key, MARK, mark(key in self._picked))
        if table.cursor_row < table.row_count - 1:
            table.move_cursor(row=table.cursor_row + 1)
        self._show_status()

    def action_take_all(self) -> None:
        self._whole = not self._whole
        self._picked.clear()
        table = self.query_one(RowTable)
        for key in self._rows:
            table.update_cell(key, MARK, mark(self._whole))
        self._show_status()

    def _selection(self) -> Selection | None:
        if self._picked:
            return Selection(self._filter, tuple(RowKey.parse(k) for k in self._picked))
        if self._whole:
            return Selection(self._filter)
        row = self._current()
        return Selection(self._filter, (row.key,)) if row is not None else None

    # --- what the keys do to the rows: the screen's BrowseActions (actions.py) ---------------

    action_act = by_actions(BrowseActions.act)
    action_tag = by_actions(BrowseActions.tag)
    action_untag = by_actions(BrowseActions.untag)
    action_set_due = by_actions(BrowseActions.set_due)
    action_move_deck = by_actions(BrowseActions.move_deck)
    action_delete_article = by_actions(BrowseActions.delete_article)
    action_card_info = by_actions(BrowseActions.card_info)
    action_open = by_actions(BrowseActions.open)
    action_trash_view = by_actions(BrowseActions.trash_view)
    action_undo = by_actions(BrowseActions.undo)

    def on_browse_actions_rows_changed(self, message: BrowseActions.RowsChanged) -> None:
        if self.actions.changed(message):
            self._picked.clear()
            self._whole = False
            self._reload()

    def on_browse_actions_article_deleted(self, message: BrowseActions.ArticleDeleted) -> None:
        self.actions.deleted(message)
        self._reload()

    def on_bulk_undone(self, message: BulkUndone) -> None:
        if say_undone(self.app, message.result):
            self._reload()
