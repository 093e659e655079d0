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
    """Home at 120x36: two rounded cards side by side, "Review today" with a large 0 (nothing
    due: no unit confirmed yet), "0 cards due · 0 new", "0 learning · 0 due tomorrow" and the
    r key, and "Waiting for you" with a large count of every sample proposal, "... proposed
    units to confirm from 4 articles" and the t key; under them "Streak 0 days · 0 confirmed
    units to remember · 4 articles"; then a year of heatmap (month names above, grey dots,
    the legend with its title below), all centred; the footer lists r Review, t Triage,
    i Import, l Library, s Stats, , Settings, / Search, ? Help."""
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys())


def test_home_80x24(snap_compare: Callable[..., bool], samples: Services) -> None:
    """Home in an 80x24 terminal, after three Good answers today: the same two cards (3 due from
    the confirmed articles' learning cards and 10 new, as many as the session shows; 11 proposals
    "from 2 articles", the two with proposals waiting), "Streak
    1 day", and 35 weeks of heatmap with today's square lit, the legend on the last line above
    the footer: nothing cut off, nothing scrolls."""
    confirm_and_review(samples, 3)
    assert snap_compare(make_app(samples), terminal_size=(80, 24), run_before=keys())


@pytest.mark.parametrize("theme", THEMES)
def test_article(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Article "Photosynthesis: how plants store sunlight": paragraphs p_001… with ids in a left gutter; the second unit is
    selected in the unit list on the right, its evidence paragraph has a tinted background
    with the exact quote in the accent colour, and the unit's details (From: its context line,
    here the title alone as a .txt has no sections; content, type, tags, questions, evidence)
    sit under the list."""
    app = make_app(samples, theme=theme)
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("l", "down", "down", "down", "enter", "n"))


@pytest.mark.parametrize("theme", THEMES)
def test_triage(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Triage: "N proposals waiting" over the first proposed unit's card (From: its context
    line, the article's title alone for a .txt; content, type, status proposed, confidence,
    tags, Q&A and cloze questions, evidence) on the left; its
    article on the right scrolled to the evidence paragraph with the quote highlighted; the
    footer shows a Accept, r Reject, e Edit, s Skip, u Undo, A Accept all valid."""
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys("t"))


@pytest.mark.parametrize("theme", THEMES)
def test_review_revealed(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Review after space at 120x36: the progress line (Left: new, reviews, learning; Done) on a
    panel; the question card centred (bold, centred question under the muted "NEW · concept
    from <context line>" line: a .txt has no sections, so the article's title); "Answer" with the expected answer in bold green, centred; the
    evidence block with a thick accent bar on the left, "Evidence <article title>", the
    paragraph id and text with the quote highlighted; at the bottom the four rating keys as
    coloured blocks with their intervals (1 Again · 1m … 4 Easy · 4d); rating keys 1–4 active
    in the footer, which ends "o Source i Card info" whole (no key cut) before "^p palette"."""
    confirm_and_review(samples, 0)
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=revealed)


def test_review_revealed_80x24(snap_compare: Callable[..., bool], samples: Services) -> None:
    """The same card after space in an 80x24 terminal: the progress line fits one row, the
    question card is compact, the answer, the whole evidence paragraph with its quote
    highlighted, and the rating keys with their intervals all fit above the footer, whose keys
    that fit are whole ("esc Back space Reveal 1 Again … u Undo e Edit", then "^p palette")."""
    confirm_and_review(samples, 0)
    assert snap_compare(make_app(samples), terminal_size=(80, 24), run_before=revealed)


async def revealed(pilot: Pilot[None]) -> None:
    await keys("r", "space")(pilot)
    await pilot.pause(0.4)  # the progress line is refreshed 0.3 s after a card is shown
    await settle(pilot)


@pytest.mark.parametrize("theme", THEMES)
def test_stats(snap_compare: Callable[..., bool], samples: Services, theme: str) -> None:
    """Stats after three Good answers today: two plotext day charts with whole-number axes
    (reviews a day with a bar on 11-02, labelled, and due a day for the next 30 days), two
    labelled bar lists (true retention "none yet" vs the 90% target; cards by state, each
    with its count), a 5-week heatmap with today marked and "Streak 1 day", and the curation
    table with the offline extractor's accepted count and a 100 % accept rate."""
    confirm_and_review(samples, 3)
    assert snap_compare(make_app(samples, theme=theme), terminal_size=SIZE, run_before=keys("s"))
