"""The search modal by keyboard: down into the results, up from the first result back to the
field (there was no way back but the mouse)."""

from __future__ import annotations

from conftest import SIZE, make_app, settle
from textual.widgets import Input, OptionList

from core.services.bootstrap import Services
from tui.modals.search import SearchModal


async def test_up_from_the_first_result_goes_back_to_the_field(samples: Services) -> None:
    app = make_app(samples)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"light")
        await pilot.pause(0.2)
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, SearchModal)
        results, field = modal.query_one(OptionList), modal.query_one(Input)
        assert results.option_count >= 2
        await pilot.press("down")
        assert results.has_focus and results.highlighted == 0
        await pilot.press("down", "down", "up")  # inside the list, up still moves up
        assert results.has_focus and results.highlighted == 1
        await pilot.press("up", "up")
        assert field.has_focus
        await pilot.press(*" energy")
        assert field.value == "light energy"
