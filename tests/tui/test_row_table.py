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
