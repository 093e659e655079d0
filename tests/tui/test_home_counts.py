"""Home's counts are the other screens' counts (issue 32): "N new" is the number the review
session shows (the day's limit, one card a unit), and "from N articles" counts the articles
that have proposals waiting, not every article in the library."""

from __future__ import annotations

from dataclasses import replace

from conftest import confirm_all, opened, running, screen_text

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen


async def test_home_says_as_many_new_as_review_shows(samples: Services) -> None:
    confirm_all(samples)
    samples.config = replace(samples.config, new_per_day=10)
    samples.review.start_session()
    for _ in range(3):  # three new cards answered today: 7 more today, not 10
        item = samples.review.next_card()
        assert item is not None
        samples.review.answer(item.card.id, 4)
    new_cards = samples.stats.summary().counts["new"]
    session = samples.review.preview_session().new_left
    assert session == 7 and new_cards > 10  # the bug's picture: Home said min(new cards, 10)
    async with running(samples) as (app, pilot):
        assert f"due · {session} new" in screen_text(app)
        await opened(pilot, "r", ReviewScreen)
        assert app.screen.services.review.summary().new_left == session


async def test_home_counts_the_articles_with_proposals(samples: Services) -> None:
    articles = samples.library.articles()
    samples.curation.accept_all_valid(articles[-1].id)
    for unit in samples.library.units(articles[-1].id, ["proposed"]):
        samples.curation.reject(unit.id)  # the invalid ones: nothing waits in this article
    waiting = [a for a in samples.library.articles() if a.proposed]
    assert 0 < len(waiting) < len(articles)
    async with running(samples) as (app, _):
        shown = " ".join(screen_text(app).split())
        assert f"from {len(waiting)} articles in the library" in shown, shown
