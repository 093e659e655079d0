"""Browse "move to deck…" by keys: m opens the article picker, typing narrows it, enter moves the
row's unit into that article's deck (the database after each step); u undoes it; the picker's
first entry moves it back to its own article's deck."""

from __future__ import annotations

from conftest import opened, running, screen_text, settle
from test_review_support import add_units, q

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.db import db
from core.storage.search import index as search_index
from tui.modals.pick import PickModal
from tui.screens.browse import BrowseScreen


def _deck(unit_id: int) -> object:
    return q("SELECT deck_id FROM unit WHERE id = ?", unit_id)[0][0]


def _article(unit_id: int) -> int:
    return int(str(q("SELECT article_id FROM unit WHERE id = ?", unit_id)[0][0]))


async def _filter(pilot: object, line: str) -> None:
    await pilot.press("f", "ctrl+u", *line, "enter")  # type: ignore[attr-defined]
    await settle(pilot)


async def test_move_a_card_to_another_articles_deck_undo_it_and_move_it_back(
    svc: Services, tui_clock: FixedClock
) -> None:
    now = int(tui_clock.now().timestamp())
    source_units, other = add_units(2, 2, now=now), add_units(1, 1, now=now)
    moved, source, deck = source_units[0], _article(source_units[0]), _article(other[0])
    deck_title = str(q("SELECT title FROM article WHERE id = ?", deck)[0][0])
    content = "chloroplasts hold chlorophyll"  # words no other unit has: the filter finds it alone
    q("UPDATE unit SET content = ? WHERE id = ?", content, moved)
    with db.atomic():  # written past the app: its search index too (Browse's text filter reads it)
        search_index.reindex_unit(moved)
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "b", BrowseScreen)
        await _filter(pilot, content)  # the moved unit's two cards
        assert {r.key.unit_id for r in screen._rows.values()} == {moved}

        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, PickModal)
        await pilot.press(*deck_title, "enter")  # narrowed to the other article: enter takes it
        await settle(pilot)
        assert isinstance(app.screen, BrowseScreen)
        assert (_article(moved), _deck(moved)) == (source, deck)  # the source stays
        assert f"→ {deck_title}" in screen_text(app)  # the article column shows the deck
        await _filter(pilot, f"article:{source}")
        assert moved not in {r.key.unit_id for r in screen._rows.values()}  # out of its source's deck
        await _filter(pilot, f"article:{deck}")
        assert moved in {r.key.unit_id for r in screen._rows.values()}

        await pilot.press("u")
        await settle(pilot)
        assert _deck(moved) is None
        await _filter(pilot, content)
        await pilot.press("m")
        await settle(pilot)
        await pilot.press(*deck_title, "enter")
        await settle(pilot)
        assert _deck(moved) == deck

        await pilot.press("m")  # and back: the picker's first entry
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, BrowseScreen)
        assert _deck(moved) is None
        assert "→" not in screen_text(app)
