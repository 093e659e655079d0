"""Issue 30: every card says where it comes from. Review, Triage and the Article's unit card show
its context line (the article's title › the section of its quote), muted and never markup."""

from __future__ import annotations

from pathlib import Path

from conftest import article_screen, imported, running, screen_text, settle
from textual.widgets import Static

from core.services.bootstrap import Services
from tui.screens.review import ReviewScreen
from tui.screens.triage import TriageScreen

# No "# title": the article's title is its file name's stem, "plant_notes" (read as "plant notes").
# The section heading is markup if anything parses it: it must show as it is written.
ARTICLE = """## Light reactions

### Water [b]splitting[/b]

Photosynthesis converts light energy into chemical energy in the chloroplasts of green plants. The light reactions split water and release oxygen as a by-product.

Chlorophyll absorbs red and blue light most strongly and reflects green light, which is why leaves look green to us.
"""
CONTEXT = "plant notes › Light reactions › Water [b]splitting[/b]"


def _import(svc: Services, tmp_path: Path) -> int:
    article_id = imported(svc, tmp_path / "plant_notes.md", ARTICLE)
    assert svc.library.article(article_id).title == "plant_notes"  # type: ignore[union-attr]
    return article_id


def _first_line(app, selector: str) -> str:  # type: ignore[no-untyped-def]
    """The first line a unit card draws (the panel is narrow: the screen wraps it)."""
    return str(app.screen.query_one(selector, Static).render()).splitlines()[0]


async def test_review_shows_the_card_context_above_the_question(svc: Services, tmp_path: Path) -> None:
    article_id = _import(svc, tmp_path)
    assert svc.curation.accept_all_valid(article_id)
    async with running(svc, start="review") as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        assert screen.item.context == CONTEXT
        shown = screen_text(app)
        assert CONTEXT in shown, shown
        assert shown.index(CONTEXT) < shown.index(screen.item.question.split()[0])  # above the question
        await pilot.press("space")  # still there with the answer shown
        await settle(pilot)
        assert CONTEXT in screen_text(app)


async def test_triage_shows_the_proposal_context(svc: Services, tmp_path: Path) -> None:
    _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen) and app.screen.unit is not None
        assert _first_line(app, "#triage-unit") == f"From     {CONTEXT}"
        assert "From     plant notes › Light reactions" in screen_text(app)


async def test_the_article_unit_card_shows_its_context(svc: Services, tmp_path: Path) -> None:
    article_id = _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        screen = await article_screen(pilot, article_id)
        assert screen.units
        assert _first_line(app, "#article-unit") == f"From     {CONTEXT}"
        assert "From     plant notes › Light" in screen_text(app), screen_text(app)
