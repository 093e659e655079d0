"""Card info from Review (after the answer is shown, not before) and from the Article screen."""

from __future__ import annotations

from conftest import article_screen, confirm_all, opened, reviewing, running, screen_text, settle

from core.services.bootstrap import Services
from tui.modals.card_info import CardInfoModal


async def test_review_shows_card_info_only_after_the_answer(samples: Services) -> None:
    async with reviewing(samples) as (app, pilot, screen):
        await pilot.press("i")
        await settle(pilot)
        assert not isinstance(app.screen, CardInfoModal)  # would show the memory before recall
        await pilot.press("space", "i")
        await settle(pilot)
        assert isinstance(app.screen, CardInfoModal) and app.screen.card_id == screen.item.card.id
        assert "R now" in screen_text(app)


async def test_article_shows_each_card_of_the_unit(samples: Services) -> None:
    confirm_all(samples)
    article, unit = next(
        (a, u)
        for a in samples.library.articles()
        for u in samples.library.units(a.id)
        if len(samples.review.cards_of_unit(u.id)) > 1  # a Q&A and a cloze
    )
    cards = [c.id for c in samples.review.cards_of_unit(unit.id)]
    async with running(samples) as (app, pilot):
        await article_screen(pilot, article.id, unit_id=unit.id)
        modal = await opened(pilot, "i", CardInfoModal)
        assert modal.card_id == cards[0]
        await pilot.press("n")
        await settle(pilot)
        assert modal.card_id == cards[1] and f"2 of {len(cards)}" in screen_text(app)
