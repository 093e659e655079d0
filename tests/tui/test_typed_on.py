"""A key acts on the screen it was typed on, and only while that screen is still on top (issue
32: Triage `o` then `e` typed fast left an edit form under the Article screen).

The keys are posted at once, as a fast typist's keys reach the app: both are queued before the
first one has opened anything."""

from __future__ import annotations

import asyncio

from conftest import opened, running, settle
from textual import events

from core.services.bootstrap import Services
from tui.modals.edit_unit import EditUnitModal
from tui.screens.article import ArticleScreen
from tui.screens.home import HomeScreen
from tui.screens.review import ReviewScreen
from tui.screens.triage import TriageScreen


async def _typed_fast(pilot: object, *keys: str) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))
    await asyncio.sleep(0.5)
    await settle(pilot)


async def test_triage_open_then_edit_typed_fast_leaves_no_form_under_the_article(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        triage = await opened(pilot, "t", TriageScreen)
        assert triage.unit is not None
        await _typed_fast(pilot, "o", "e")
        assert isinstance(app.screen, ArticleScreen)
        assert not any(isinstance(s, EditUnitModal) for s in app.screen_stack), app.screen_stack
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is triage  # back where the keys were typed, nothing in between


async def test_a_key_after_one_that_opens_a_screen_does_not_act_on_the_screen_beneath(
    samples: Services,
) -> None:
    """Home `t` then `r`: Triage opens and `r` (Reject there, Review on Home) does nothing."""
    async with running(samples) as (app, pilot):
        proposed = samples.library.unit_count("proposed")
        await _typed_fast(pilot, "t", "r")
        assert isinstance(app.screen, TriageScreen)
        assert not any(isinstance(s, ReviewScreen) for s in app.screen_stack), app.screen_stack
        assert samples.library.unit_count("proposed") == proposed  # nothing rejected either
        assert [type(s) for s in app.screen_stack][-2:] == [HomeScreen, TriageScreen]
