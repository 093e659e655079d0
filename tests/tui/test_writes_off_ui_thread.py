"""Issue 31: every change of the library is a typed command run in a worker: a key never writes
on the UI thread, so another process holding the write lock never freezes a frame. Each test
clears `ui_thread_writes` once its app is up, presses a screen's writing keys, checks that the
writes happened (in the database) and that none of them was on the UI thread."""

from __future__ import annotations

from conftest import running, settle

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen


async def test_review_answers_undoes_suspends_buries_and_pins_off_the_ui_thread(
    samples: Services, ui_thread_writes: list[str]
) -> None:
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    async with running(samples, start="review") as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        ui_thread_writes.clear()
        first = screen.item.card.id
        await pilot.press("space", "3")  # an answer
        await settle(pilot)
        assert screen.answered == [first]
        await pilot.press("u")  # its undo: the card again
        await settle(pilot)
        assert screen.answered == [] and screen.item is not None and screen.item.card.id == first
        await pilot.press("p")  # pin its unit
        await settle(pilot)
        assert screen.item is not None and screen.item.pinned
        await pilot.press("x")  # suspend
        await settle(pilot)
        assert screen.item is not None and screen.item.card.id != first
        second = screen.item.card.id
        await pilot.press("b")  # bury
        await settle(pilot)
        assert screen.item is None or screen.item.card.id != second
    assert ui_thread_writes == []
    queues = {card.id: card.queue for card in samples.review.suspended()}
    assert first in queues
