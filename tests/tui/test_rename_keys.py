"""Library `r`: the rename dialog opens with the article's title filled in; enter stores the
new title (cleaned, markup kept as text), escape changes nothing (issue 32, item 2)."""

from __future__ import annotations

from conftest import SIZE, make_app, opened, settle
from textual.widgets import DataTable, Input

from core.services.bootstrap import Services
from tests.faults.helpers import query
from tui.modals.prompt import Ask
from tui.screens.library import LibraryScreen


def titles(svc: Services) -> set[str]:
    return {str(row[0]) for row in query(svc.data_dir, "SELECT title FROM article")}


async def test_r_renames_the_selected_article(samples: Services) -> None:
    app = make_app(samples)
    before = titles(samples)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await opened(pilot, "l", LibraryScreen)
        first = samples.library.articles()[0]
        await opened(pilot, "r", Ask)
        field = app.screen.query_one(Input)
        assert field.value == first.title  # prefilled
        await pilot.press("escape")
        await settle(pilot)
        assert titles(samples) == before
        await pilot.press("r")
        await settle(pilot)
        app.screen.query_one(Input).value = ""
        await pilot.press(*"Mine [@click=app.quit] x", "enter")
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen) and app.is_running
        assert titles(samples) == (before - {first.title}) | {"Mine [@click=app.quit] x"}
        table = app.screen.query_one(DataTable)
        assert str(table.get_row_at(table.cursor_row)[0]) == "Mine [@click=app.quit] x"
