"""Issue 31: every change of the library is a typed command run in a worker: a key never writes
on the UI thread, so another process holding the write lock never freezes a frame. Each test
clears `ui_thread_writes` once its app is up, presses a screen's writing keys, checks that the
writes happened (in the database) and that none of them was on the UI thread."""

from __future__ import annotations

import sqlite3

from conftest import running, settle, until

from core.host import paths
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


# bench/replay_keys.py's session: Triage, Review with undo, Browse, Schedule, an article, the Trash
SESSION = (
    "t a r u a s a a a a escape",
    "r space 3 space 1 u space 4 space 2 x u space 3 b escape",
    "b space down space x u space d u down space d escape",
    "w e end backspace 0 enter u e end backspace 0 enter p enter u p enter escape",
    "l enter n n n p s m f f escape escape",
    "b w r u r escape escape",
    "r space 3 space 4 escape",
)
A_DAY = [key for line in SESSION for key in line.split()]


async def test_a_day_of_keys_on_every_screen_writes_nothing_on_the_ui_thread(
    samples: Services, ui_thread_writes: list[str]
) -> None:
    """The replayed session of bench/replay_keys.py (which shows it changes the library as it
    did before the commands): no write statement on the UI thread from the first key to the last."""
    async with running(samples, size=(160, 48)) as (_, pilot):
        ui_thread_writes.clear()
        for key in A_DAY:
            await pilot.press(key)
            await settle(pilot)
        assert samples.review.summary().answers_today >= 5
    assert ui_thread_writes == []


async def test_review_keys_typed_ahead_of_a_save_act_in_their_turn(samples: Services) -> None:
    """space 3 space 3 typed faster than an answer is saved (another process holds the write lock
    for a moment): no key is lost or refused; each acts on the card shown once the one before is
    saved, as when the UI thread saved an answer before it read the next key."""
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    async with running(samples, start="review", notifications=True) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        other = sqlite3.connect(str(paths.database_path()), timeout=0)
        other.execute("BEGIN IMMEDIATE")  # the first answer waits for it on the writer thread
        try:
            await pilot.press("space", "3", "space", "3", "space", "4")
            await pilot.pause(0.2)
            assert screen.ahead.waiting == ["reveal", "rate(3)", "reveal", "rate(4)"]
        finally:
            other.rollback()
            other.close()
        await until(pilot, lambda: len(screen.answered) == 3 and not screen.ahead.waiting)
        await settle(pilot)
        assert len(set(screen.answered)) == 3
        assert not [n for n in app._notifications if "not available" in str(n.message).lower()]
    assert samples.review.summary().answers_today == 3
