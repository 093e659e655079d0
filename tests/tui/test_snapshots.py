"""Snapshot tests: Home, Article, Triage, Review and Stats in a dark and a light theme.

Fixed clock (2026-11-02 12:00 UTC), the sample articles imported by the offline extractor,
no cursor blink. Update with `pytest tests/tui --snapshot-update` after checking the pictures.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from conftest import SIZE, make_app, settle
from textual.pilot import Pilot

from core.services.bootstrap import Services

THEMES = ("memoryrush-dark", "memoryrush-light")


def keys(*pressed: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        for key in pressed:
            await pilot.press(key)
            await settle(pilot)

    return run_before


def confirm_and_review(svc: Services, answers: int) -> None:
    """Accept every valid proposal of the first two articles, then answer `answers` cards Good."""
    for article in svc.library.articles()[-2:]:
        svc.curation.accept_all_valid(article.id)
    svc.review.start_session()
    for _ in range(answers):
        item = svc.review.next_card()
        assert item is not None
        svc.review.answer(item.card.id, 3)


@pytest.mark.parametrize("theme", THEMES)
def test_home(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Home: a rounded box with Due today 0, New available 0, Proposals waiting (all sample
    units), Confirmed 0, Articles 4, Streak 0 days; below it a 16-week heatmap of grey dots;
    the key hint line; the footer lists r Review, t Triage, i Import, l Library, s Stats, ,
    Settings, / Search, ? Help."""
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys())


@pytest.mark.parametrize("theme", THEMES)
def test_article(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Article "photosynthesis": paragraphs p_001… with ids in a left gutter; the second unit is
    selected in the unit list on the right, its evidence paragraph has a tinted background
    with the exact quote in the accent colour, and the unit's details (content, type, tags,
    questions, evidence) sit under the list."""
    app = make_app(samples, theme=theme)
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("l", "down", "down", "down", "enter", "n"))


@pytest.mark.parametrize("theme", THEMES)
def test_triage(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Triage: "N proposals waiting" over the first proposed unit's card (content, type,
    status proposed, confidence, tags, Q&A and cloze questions, evidence) on the left; its
    article on the right scrolled to the evidence paragraph with the quote highlighted; the
    footer shows a Accept, r Reject, e Edit, s Skip, u Undo, A Accept all valid."""
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys("t"))


@pytest.mark.parametrize("theme", THEMES)
def test_review_revealed(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Review after space: the progress bar line (new/reviews/learning left), the question in a
    rounded box, "Answer" with the expected answer and the four choices with their intervals
    (1 Again … 4 Easy), then the evidence paragraph with the quote highlighted; rating keys
    1–4 are active in the footer."""
    confirm_and_review(samples, 0)

    async def run_before(pilot: Pilot[None]) -> None:
        await keys("r", "space")(pilot)
        await pilot.pause(0.4)  # the progress line is refreshed 0.3 s after a card is shown
        await settle(pilot)

    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_stats(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Stats after three Good answers today: four plotext charts (reviews per day with a bar
    on 11-02, due per day for the next 30 days, true retention vs the 90 % target, cards by
    state), a 5-week heatmap with today marked and "Streak 1 days", and the curation table
    with the offline extractor's accepted count and a 100 % accept rate."""
    confirm_and_review(samples, 3)
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys("s"))
