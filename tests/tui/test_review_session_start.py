"""Review starts its session on the writer thread (`StartSession`) and leaves a new day's unbury to
it (`CatchUp`): what the screen shows when either comes late, after the screen has read the
queue as it was. A session is never said complete while its queue has cards, and a card on
screen is never swapped for one the rebuilt queue brought back."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from conftest import reviewing, running, screen_text, settle

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen


def _bury_every_due_card(samples: Services) -> int:
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    samples.review.start_session()
    buried = 0
    while (item := samples.review.next_card()) is not None:
        assert samples.review.bury(item.card.id)
        buried += 1
    return buried


async def test_a_session_started_late_shows_its_cards(samples: Services) -> None:
    """Every card was buried yesterday; a write queued before the session's start (a reading
    position waiting for another process's lock) holds it past the mount's wait: the screen
    first reads a queue with nothing in it, then shows the cards the start brought back."""
    assert _bury_every_due_card(samples) > 0
    samples.clock.advance(days=1)  # every burial has ended
    async with running(samples) as (app, pilot):
        app.worker_threads.write(lambda: time.sleep(0.6), lambda: None)  # a slow write, queued first
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert samples.review.today.ids()
        assert screen.item is not None, "the session is said complete while its queue has cards"
        assert "complete" not in screen_text(app).lower()


async def test_a_new_days_cards_join_after_the_card_on_screen(samples: Services) -> None:
    """Midnight passes while a card's answer is shown: back on Review the day is read (nothing
    written), the writer lifts the burials that ended and the queue is built again; the card on
    screen stays, its answer shown, and the lifted card is in the day's session."""
    async with reviewing(samples) as (_, pilot, screen):
        first = screen.item.card.id
        await pilot.press("b")  # buried until the review day ends
        await settle(pilot)
        assert screen.item is not None and screen.item.card.id != first
        await pilot.press("space")
        await settle(pilot)
        shown = screen.item.card.id
        samples.clock.advance(days=1)  # midnight passes
        await pilot.press("question_mark", "escape")  # back on Review: the card read for the new day
        await settle(pilot)
        assert first in samples.review.today.ids()  # the lifted card is in the day's session
        assert screen.item is not None and (screen.item.card.id, screen.revealed) == (shown, True)


async def test_undo_on_the_empty_screen_does_not_keep_a_late_session_out(samples: Services) -> None:
    """`u` pressed on "Session complete" before the late start has run: the undo finds nothing
    it may take back (the start changed the buried cards), and the screen still shows the
    cards the start brought back."""
    assert _bury_every_due_card(samples) > 0
    samples.clock.advance(days=1)
    async with running(samples) as (app, pilot):
        app.worker_threads.write(lambda: time.sleep(0.6), lambda: None)  # a slow write, queued first
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is None
        await pilot.press("u")
        await settle(pilot)
        assert samples.review.today.ids()
        assert screen.item is not None, "the session is said complete while its queue has cards"


def test_a_new_days_unbury_is_not_lost_when_midnight_passes_during_the_last_ones(
    samples: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer lifts the burials that ended just before midnight; meanwhile midnight passes and
    the UI thread reads the new day (its unbury due, the queue built without it). The writer's
    end does not clear the new day's unbury: the card buried the day before is lifted and in the
    new day's session."""
    from core.domain.review import Queue
    from core.storage.review import cards

    review = samples.review
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    review.start_session()
    first = review.next_card()
    assert first is not None and review.bury(first.card.id)
    samples.clock.set(review.day().end - timedelta(seconds=1))
    lift = cards.unbury

    def midnight_passes_meanwhile(now: int, *, wait: bool = True) -> int:
        lifted = lift(now, wait=wait)
        samples.clock.advance(seconds=2)
        review.next_card(lift=False)  # the UI thread reads the new day
        return lifted

    monkeypatch.setattr(cards, "unbury", midnight_passes_meanwhile)
    review.start_session()  # on the writer thread, a second before midnight
    monkeypatch.setattr(cards, "unbury", lift)
    review.catch_up()  # (the session's summary, read on the writer thread, may have done it)
    assert review.card(first.card.id).queue != Queue.BURIED
    assert first.card.id in review.today.ids()
