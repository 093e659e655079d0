"""RowTable keeps the lines Textual styled for it, and draws its scrollbar from kept lines
(tui/widgets/line_memo.py): a one-row scroll styles only what is new on screen, and the screen
Textual puts together is the very one a stock DataTable gives, through moves, scrolls, focus,
hover on the scrollbar and a theme change."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

from tests.tui.test_row_table import OneTable
from tui.safe import cell
from tui.widgets.row_table import RowTable

SIZE = (60, 20)


def fill(table: DataTable[object], rows: int = 200) -> None:
    table.add_column("Title", key="title")
    table.add_column("Narrow", key="narrow", width=7)
    for i in range(rows):
        narrow = ("光合作用把光能变成化学能", "", "abcdefgh", "a中b")[i % 4]
        table.add_row(cell(f"Card {i} [@click=app.quit]"), cell(narrow), key=str(i))
    if isinstance(table, RowTable):
        table.measure_new_rows()


def screen_of(app: App[None]) -> list[list[tuple[str, object]]]:
    """Every cell of the screen as Textual composites it (table, scrollbar, around them): its
    character and style (however the line is cut into segments)."""
    strips = app.screen._compositor.render_strips()
    return [[(char, s.style) for s in strip for char in s.text] for strip in strips]


async def screens(table: DataTable[object]) -> list[list[list[tuple[str, object]]]]:
    app = OneTable(table)
    shots = []
    async with app.run_test(size=SIZE) as pilot:
        fill(table)
        await pilot.pause()
        for step in (1, 18, 1, 1, 5, 40, -3, -30, 100):
            for _ in range(abs(step)):
                table.action_cursor_down() if step > 0 else table.action_cursor_up()
            await pilot.pause()
            shots.append(screen_of(app))
        await pilot.hover(table.vertical_scrollbar)  # the bar in its hover colours
        await pilot.pause()
        shots.append(screen_of(app))
        app.set_focus(None)  # no focus: no tint
        await pilot.pause()
        shots.append(screen_of(app))
        app.theme = "textual-light"
        await pilot.pause()
        shots.append(screen_of(app))
        for _ in range(7):
            table.action_cursor_down()
        await pilot.pause()
        shots.append(screen_of(app))
    return shots


async def test_the_screen_is_a_stock_data_tables_through_scrolls_focus_hover_and_theme() -> None:
    fast, stock = (
        await screens(RowTable(cursor_type="row", zebra_stripes=True)),
        await screens(DataTable(cursor_type="row", zebra_stripes=True)),
    )
    assert len(fast) == len(stock)
    for n, (shot, stock_shot) in enumerate(zip(fast, stock, strict=True)):
        assert shot == stock_shot, f"picture {n} differs from a stock DataTable's"


def lines_of(widget: object) -> list[Strip]:
    width, height = widget.size  # type: ignore[attr-defined]
    return widget.render_lines(Region(0, 0, width, height))  # type: ignore[attr-defined]


async def test_a_one_row_scroll_styles_only_the_lines_new_on_screen() -> None:
    """Rows still on screen after a one-row scroll are the very lines painted before (one row
    up), the header too; only the two cursor rows are drawn again. The scrollbar's cells are
    the lines it drew before, bar a thumb end."""
    table = RowTable(cursor_type="row", zebra_stripes=True)
    async with OneTable(table).run_test(size=SIZE) as pilot:
        fill(table)
        await pilot.pause()
        body = table.size.height - 1  # under the header
        for _ in range(body - 1):  # the cursor to the last row on screen
            table.action_cursor_down()
        await pilot.pause()
        assert table.scroll_offset.y == 0
        before, bar_before = lines_of(table), lines_of(table.vertical_scrollbar)
        table.action_cursor_down()
        await pilot.pause()
        assert table.scroll_offset.y == 1
        after, bar_after = lines_of(table), lines_of(table.vertical_scrollbar)
        assert after[0] is before[0]  # the header
        moved = [y for y in range(1, body) if after[y] is not before[y + 1]]
        assert moved == [body - 1], "a row still on screen was styled again"  # the row the cursor left
        kept = {id(strip) for strip in bar_before}
        assert sum(id(strip) not in kept for strip in bar_after) <= 2


async def mouse_walk(table: DataTable[object]) -> list[tuple[int, int]]:
    """(cursor row, scroll y) after each of: a click on a row, the wheel, a click on the
    scrollbar's track, a drag of its thumb, a click on a row again."""
    app = OneTable(table)
    states = []
    async with app.run_test(size=SIZE) as pilot:
        fill(table)
        await pilot.pause()

        async def seen() -> None:
            await pilot.pause()
            states.append((table.cursor_row, table.scroll_offset.y))

        await pilot.click(table, offset=(3, 5))
        await seen()
        for _ in range(3):
            x, y = table.region.x + 3, table.region.y + 5
            app.post_message(
                events.MouseScrollDown(None, x, y, 0, 1, 0, False, False, False, screen_x=x, screen_y=y)
            )
            await seen()
        bar = table.vertical_scrollbar
        await pilot.click(bar, offset=(0, bar.size.height - 1))  # the track below the thumb: a page down
        await seen()
        thumb = next(y for y, strip in enumerate(lines_of(bar)) if "grab" in str(strip))
        await pilot.mouse_down(bar, offset=(0, thumb))
        await pilot.hover(bar, offset=(0, thumb + 4))
        await pilot.mouse_up(bar, offset=(0, thumb + 4))
        await seen()
        await pilot.click(table, offset=(3, 8))
        await seen()
    return states


async def test_the_mouse_does_to_it_what_it_does_to_a_stock_data_table() -> None:
    fast = await mouse_walk(RowTable(cursor_type="row", zebra_stripes=True))
    stock = await mouse_walk(DataTable(cursor_type="row", zebra_stripes=True))
    assert fast == stock
    scrolls = [scroll for _, scroll in fast]
    assert scrolls[0] < scrolls[1] < scrolls[3] < scrolls[4] < scrolls[5], scrolls  # wheel, track, drag
    assert fast[0][0] != fast[-1][0]  # the clicks moved the cursor
