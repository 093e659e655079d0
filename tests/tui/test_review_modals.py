"""Review across modals: Help, the palette and search leave the revealed answer shown and the
rating keys live; a key that cannot act says why (it was swallowed without a word)."""

from __future__ import annotations

import pytest
from conftest import running, screen_text, settle
from test_snapshots import confirm_and_review

from core.services.bootstrap import Services
from core.storage.db import db
from tui.screens.review import ReviewScreen


def _answers() -> int:
    return int(db.execute_sql("SELECT COUNT(*) FROM review_log").fetchone()[0])


@pytest.mark.parametrize("opens", [("question_mark",), ("ctrl+p",), ("slash",)])
async def test_the_answer_stays_revealed_across_a_modal_and_rating_works(
    samples: Services, opens: tuple[str, ...]
) -> None:
    confirm_and_review(samples, 0)
    async with running(samples, start="review") as (app, pilot):
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.item is not None
        card = review.item.card.id
        await pilot.press("space")
        await settle(pilot)
        answer = review.item.answer
        assert review.revealed and answer[:20] in " ".join(screen_text(app).split())
        await pilot.press(*opens)
        await settle(pilot)
        assert app.screen is not review
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is review
        assert review.revealed and review.item is not None and review.item.card.id == card
        assert answer[:20] in " ".join(screen_text(app).split())
        await pilot.press("3")
        await settle(pilot)
        assert _answers() == 1
        assert review.item is None or review.item.card.id != card


async def test_a_rating_key_before_the_answer_says_why(samples: Services) -> None:
    confirm_and_review(samples, 0)
    async with running(samples, start="review", notifications=True) as (app, pilot):
        await pilot.press("3")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said == ["Show the answer first (space), then rate it 1-4"], said
        assert _answers() == 0
        await pilot.press("space", "space")  # space again: the answer is already shown
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said[-1].startswith("The answer is shown: rate it 1 Again"), said


async def test_accept_on_a_unit_with_errors_says_why(samples: Services) -> None:
    from textual.widgets import TextArea

    async with running(samples, notifications=True) as (app, pilot):
        await pilot.press("t", "e")
        await settle(pilot)
        app.screen.query_one("#edit-content", TextArea).text = ""
        await pilot.press("ctrl+s", "ctrl+s")  # saved with its errors
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == "This unit has validation errors: edit it (e) to fix them, then accept", said
