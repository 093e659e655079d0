"""Review's counters in words: the learning card on screen is counted as left, and the summary
counts answers and the cards they were on, each in the right number."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conftest import running, screen_text, settle

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen


async def last_card_easy(pilot: Any, app: Any) -> str:
    """Space and Easy on the last card; what the summary then shows, white space folded."""
    await pilot.press("space", "4")
    await settle(pilot)
    await pilot.pause(0.4)
    await settle(pilot)
    return " ".join(screen_text(app).split())


async def test_a_card_failed_once_counts_two_answers_on_one_card(samples: Services) -> None:
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    samples.config = replace(samples.config, new_per_day=2)
    async with running(samples, start="review") as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        failed = screen.item.card.id
        await pilot.press("space", "1")  # Again: a learning card, back in a minute
        await settle(pilot)
        await pilot.press("space", "4")  # the second new card, Easy
        await settle(pilot)
        assert screen.item is not None and screen.item.card.id == failed  # shown early
        assert screen.item.card.state_label == "learning"
        await pilot.pause(0.4)  # the progress line follows 0.3 s after the card
        await settle(pilot)
        shown = screen_text(app)
        assert "Left 0 new · 0 reviews · 1 learning" in shown, shown
        assert "· 2 answers" in shown
        shown = await last_card_easy(pilot, app)
        assert "This session: 3 answers on 2 cards." in shown, shown
        assert "Today: 2 new cards, 0 reviews, 3 answers." in shown
        assert "· 3 answers" in shown


async def test_one_of_each_is_singular(samples: Services) -> None:
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    samples.config = replace(samples.config, new_per_day=1)
    async with running(samples, start="review") as (app, pilot):
        shown = await last_card_easy(pilot, app)
        assert "This session: 1 answer on 1 card." in shown, shown
        assert "Today: 1 new card, 0 reviews, 1 answer." in shown
        assert "· 1 answer" in shown and "1 answers" not in shown


async def test_home_and_triage_say_one_day_and_one_proposal(samples: Services) -> None:
    articles = samples.library.articles()
    samples.curation.accept_all_valid(articles[-1].id)
    samples.review.start_session()
    item = samples.review.next_card()
    assert item is not None
    samples.review.answer(item.card.id, 3)  # a review today: a streak of one day
    proposed = [u for a in articles for u in samples.library.units(a.id) if u.status == "proposed"]
    for unit in proposed[1:]:
        samples.curation.reject(unit.id)
    async with running(samples) as (app, pilot):
        shown = screen_text(app)
        assert "1 day" in shown and "1 days" not in shown, shown
        await pilot.press("t")
        await settle(pilot)
        shown = screen_text(app)
        assert "1 proposal waiting" in shown and "1 proposals" not in shown, shown
