"""Issue 31: every change of the library is a typed command run in a worker: a key never writes
on the UI thread, so another process holding the write lock never freezes a frame. Each test
clears `ui_thread_writes` once its app is up, presses a screen's writing keys, checks that the
writes happened (in the database) and that none of them was on the UI thread."""

from __future__ import annotations

import pytest
from conftest import opened, reviewing, running, settle, until
from process_support import write_locked
from textual import events
from textual.widgets import TextArea

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen
from tui.screens.triage import TriageScreen


async def test_review_answers_undoes_suspends_buries_and_pins_off_the_ui_thread(
    samples: Services, ui_thread_writes: list[str]
) -> None:
    async with reviewing(samples) as (_, pilot, screen):
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
    async with reviewing(samples, notifications=True) as (app, pilot, screen):
        with write_locked():  # the first answer waits for it on the writer thread
            await pilot.press("space", "3", "space", "3", "space", "4")
            await pilot.pause(0.2)
            assert screen.ahead.waiting == ["reveal", "rate(3)", "reveal", "rate(4)"]
        await until(pilot, lambda: len(screen.answered) == 3 and not screen.ahead.waiting)
        await settle(pilot)
        assert len(set(screen.answered)) == 3
        assert not [n for n in app._notifications if "not available" in str(n.message).lower()]
    assert samples.review.summary().answers_today == 3


def _burst(app: object, *keys: str) -> None:
    """Keys as a terminal sends a burst of them (one read, several Key events queued at once):
    Textual offers them all to the screen before the first one's action has run."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))  # type: ignore[attr-defined]


async def test_a_burst_of_triage_keys_accepts_one_proposal_a_key(samples: Services) -> None:
    """a a a a sent at once (held down, or typed ahead): four proposals accepted, none lost to
    the first one's save."""
    async with running(samples) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        waiting = samples.library.unit_count("proposed")
        _burst(app, "a", "a", "a", "a")
        await until(
            pilot, lambda: samples.library.unit_count("proposed") == waiting - 4 and not screen.ahead.busy
        )
        await settle(pilot)
        assert samples.library.unit_count("proposed") == waiting - 4


async def test_a_key_typed_while_an_edit_fails_to_save_goes_with_it(
    samples: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Triage: e, the edit saved (ctrl+s) while another process holds the write lock past the
    busy timeout, a pressed meanwhile: the edit is not saved, and the a, meant for the edited
    unit, does not accept the unit as it was."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "300")
    async with running(samples, notifications=True) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        unit = screen.unit
        assert unit is not None and unit.acceptable
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#edit-content", TextArea).text = unit.content + " fixed"
        with write_locked():
            await pilot.press("ctrl+s")
            await pilot.pause(0.05)
            assert app.screen is screen and screen.ahead.saving
            await pilot.press("a")
            assert screen.ahead.waiting == ["accept"]
            await until(pilot, lambda: not screen.ahead.saving)
        await settle(pilot)
        assert screen.ahead.waiting == []
        stored = samples.library.unit(unit.id)
        assert stored is not None and stored.status == "proposed" and "fixed" not in stored.content
        assert any("busy" in str(n.message) for n in app._notifications)


async def test_review_shows_the_card_as_edited(samples: Services) -> None:
    """e on a revealed card, the content changed and saved: the card shown is the edited one
    (its screen read it again once the edit was saved, not before)."""
    async with reviewing(samples) as (app, pilot, screen):
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        area = app.screen.query_one("#edit-content", TextArea)
        area.text = screen.item.unit_content + " Edited here."
        await pilot.press("ctrl+s")
        await settle(pilot)
        if app.screen is not screen:  # validation issues shown: saved anyway
            await pilot.press("ctrl+s")
            await settle(pilot)
        assert app.screen is screen and screen.item is not None and screen.revealed
        assert screen.item.unit_content.endswith("Edited here.")


async def test_a_burst_of_review_keys_answers_a_card_a_pair(samples: Services) -> None:
    """space 3 space 3 space 4 sent at once: three cards answered, each revealed first (Textual
    offers every key to the screen before the first one's action has run, and the keys after
    the first 3 come while its answer is on the writer thread)."""
    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    async with running(samples, start="review", notifications=True) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        _burst(app, "space", "3", "space", "3", "space", "4")
        await until(pilot, lambda: len(screen.answered) == 3 and not screen.ahead.busy)
        await settle(pilot)
        assert len(set(screen.answered)) == 3 and not screen.revealed
        await pilot.press("space", "space")  # a second space on a revealed card says why, as before
        await settle(pilot)
        assert any("The answer is shown" in str(n.message) for n in app._notifications)
    assert samples.review.summary().answers_today == 3


async def test_review_starts_its_session_and_a_new_day_off_the_ui_thread(
    samples: Services, ui_thread_writes: list[str]
) -> None:
    """Opening Review lifts the burials that have ended, and a new review day met while reviewing
    lifts its own: each on the writer thread (`StartSession`, `CatchUp`), the screen only reads.
    The buried cards are back in the day's session either way."""
    from core.domain.review import Queue
    from core.services.commands.review import SetAside

    article = samples.library.articles()[-1]
    samples.curation.accept_all_valid(article.id)
    samples.review.start_session()
    first = samples.review.next_card()
    assert first is not None
    samples.run(SetAside(first.card.id, bury=True))
    samples.clock.advance(days=1)  # the burial has ended
    async with running(samples) as (_, pilot):
        ui_thread_writes.clear()
        screen = await opened(pilot, "r", ReviewScreen)
        assert samples.review.card(first.card.id).queue != Queue.BURIED
        assert first.card.id in samples.review.today.ids()
        second = screen.item
        assert second is not None
        await pilot.press("b")  # buried until the review day ends
        await settle(pilot)
        assert samples.review.card(second.card.id).queue == Queue.BURIED
        samples.clock.advance(days=1)  # midnight passes while reviewing
        await pilot.press("question_mark", "escape")  # back on Review: the card read for the new day
        await settle(pilot)
        assert samples.review.card(second.card.id).queue != Queue.BURIED
        assert second.card.id in samples.review.today.ids()
    assert ui_thread_writes == []
