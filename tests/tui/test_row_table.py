"""RowTable (the Library's table) must look exactly like Textual's DataTable after any cursor moves:
its caches skip work, never change the picture."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tui.safe import cell
from tui.widgets.row_table import RowTable

MOVES = (1, 1, 3, 12, 15, -7, -2, 30)  # moves within the window and ones that scroll it

Picture = list[list[tuple[str, object]]]


class OneTable(App[None]):
    def __init__(self, table: DataTable[object]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield self.table


def picture(table: DataTable[object]) -> Picture:
    return [[(s.text, s.style) for s in table.render_line(y)] for y in range(table.size.height)]


async def pictures(table: DataTable[object]) -> list[tuple[int, int, Picture]]:
    """(cursor row, scroll y, what is painted) after filling the table and after each move."""
    app = OneTable(table)
    shots = []
    async with app.run_test(size=(60, 24)) as pilot:
        table.add_column("Title", key="title")
        table.add_column("Units", key="units")
        table.add_column("Narrow", key="narrow", width=7)  # cut with "…", wide characters too
        table.add_column("Note", key="note")
        for i in range(80):
            narrow = ("光合作用把光能变成化学能", "", "abcdefg", "abcdefgh", "a中b")[i % 5]
            note = cell("styled", style="bold") if i % 3 == 0 else cell("é" * (i % 4))
            table.add_row(cell(f"Article {i} [@click=app.quit]"), cell(i * 7), cell(narrow), note, key=str(i))
        if isinstance(table, RowTable):
            table.measure_new_rows()
        await pilot.pause()
        shots.append((table.cursor_row, table.scroll_offset.y, picture(table)))
        for steps in MOVES:
            for _ in range(abs(steps)):
                table.action_cursor_down() if steps > 0 else table.action_cursor_up()
            await pilot.pause()
            shots.append((table.cursor_row, table.scroll_offset.y, picture(table)))
    return shots


async def test_row_table_paints_like_data_table_through_moves_and_scrolls() -> None:
    fast = await pictures(RowTable(cursor_type="row", zebra_stripes=True))
    plain = await pictures(DataTable(cursor_type="row", zebra_stripes=True))
    assert max(scroll for _, scroll, _ in fast) > 0, "the moves never scrolled the table"
    assert len(fast) == len(plain) == len(MOVES) + 1
    for (row, scroll, shot), (plain_row, plain_scroll, plain_shot) in zip(fast, plain, strict=True):
        assert (row, scroll) == (plain_row, plain_scroll)
        assert shot == plain_shot, f"cursor on row {row}: RowTable paints differently"


def text_of(table: DataTable[object]) -> list[str]:
    return [
        "".join(s.text for s in strip) for strip in (table.render_line(y) for y in range(table.size.height))
    ]


async def test_lines_kept_by_row_are_drawn_again_when_the_row_changes() -> None:
    """RowTable keeps each drawn line by its row: a cell updated, or the table cleared and the
    same keys added again with other cells (what Browse does after a bulk action), is drawn
    anew, never served from the lines drawn before."""
    table = RowTable(cursor_type="row")
    async with OneTable(table).run_test(size=(60, 12)) as pilot:
        table.add_column("Title", key="title")
        table.add_column("State", key="state", width=10)
        for i in range(20):
            table.add_row(cell(f"Card {i}"), cell("review"), key=str(i))
        table.measure_new_rows()
        await pilot.pause()
        assert all("review" in line for line in text_of(table)[1:])
        table.update_cell("3", "state", cell("suspended"))
        await pilot.pause()
        assert "suspended" in text_of(table)[4] and "suspended" not in " ".join(text_of(table)[:4])
        table.clear()
        for i in range(20):
            table.add_row(cell(f"Card {i}"), cell("buried"), key=str(i))
        table.measure_new_rows()
        await pilot.pause()
        lines = text_of(table)[1:]
        assert all("buried" in line and "review" not in line and "suspended" not in line for line in lines), (
            lines
        )


async def test_rows_added_below_leave_the_drawn_lines_alone() -> None:
    """A page of rows added below the window (Browse reading on) draws none of the visible lines
    again: the lines kept are the very ones painted before."""
    table = RowTable(cursor_type="row", zebra_stripes=True)
    async with OneTable(table).run_test(size=(60, 12)) as pilot:
        table.add_column("Title", key="title")
        for i in range(30):
            table.add_row(cell(f"Card {i:03}"), key=str(i))
        table.measure_new_rows()
        await pilot.pause()
        before = [table.render_line(y) for y in range(1, table.size.height)]
        for i in range(30, 130):
            table.add_row(cell(f"Card {i:03}"), key=str(i))
        table.measure_new_rows()
        await pilot.pause()
        after = [table.render_line(y) for y in range(1, table.size.height)]
        assert all(a is b for a, b in zip(after, before, strict=True))
