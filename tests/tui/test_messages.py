"""The doors to the evidence browser from Library, Triage and Review all open it on the right
article and unit (each screen pushes it at once: BaseScreen.open_article)."""

from __future__ import annotations

from conftest import opened, running, settle

from core.services.bootstrap import Services
from tui.screens.article import ArticleScreen
from tui.screens.review import ReviewScreen
from tui.screens.triage import TriageScreen


async def test_every_door_to_an_article_opens_it(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        await pilot.press("l")  # Library: enter opens the highlighted article
        await settle(pilot)
        await opened(pilot, "enter", ArticleScreen)
        newest = samples.library.articles(1)[0]
        assert app.screen.article_id == newest.id
        await pilot.press("escape", "escape", "t")  # Triage: o opens the unit's article at the unit
        await settle(pilot)
        triage = app.screen
        assert isinstance(triage, TriageScreen) and triage.unit is not None
        unit = triage.unit
        assert samples.curation.accept(unit.id)  # (a card for Review below)
        await opened(pilot, "o", ArticleScreen)
        assert (app.screen.article_id, app.screen.initial_unit) == (unit.article_id, unit.id)
        await pilot.press("escape", "escape", "r")  # Review: o opens the card's source
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.item is not None
        item = review.item
        await opened(pilot, "o", ArticleScreen)
        assert (app.screen.article_id, app.screen.initial_unit) == (item.article_id, item.unit_id)
