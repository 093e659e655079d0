"""Browse walked by keys: each step checks the database after (issue 17's "Done when")."""

from __future__ import annotations

from datetime import UTC, datetime

from conftest import opened, running, screen_text, settle
from test_review_support import add_units, graduate, q

import scheduler
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.modals.card_info import CardInfoModal
from tui.screens.browse import BrowseScreen
from tui.screens.trash import TrashScreen
from tui.widgets.row_table import RowTable


def _library(svc: Services, clock: FixedClock) -> list[int]:
    """Three confirmed units (two cards each), two cards reviewed, then twenty days pass."""
    svc.browse.tz = UTC
    units = add_units(3, 2, now=int(clock.now().timestamp()))
    cards = [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]  # type: ignore[call-overload]
    graduate(svc, clock, cards[0])
    graduate(svc, clock, cards[2])
    clock.advance(days=20)
    svc.review.start_session()
    return units


async def _browse(app: object, pilot: object, query: str = "") -> BrowseScreen:
    await pilot.press("b")  # type: ignore[attr-defined]
    await settle(pilot)
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, BrowseScreen)
    if query:
        await pilot.press("f")  # type: ignore[attr-defined]
        await pilot.press(*query, "enter")  # type: ignore[attr-defined]
        await settle(pilot)
    return screen


def _shown_cards(screen: BrowseScreen) -> set[int]:
    return {r.key.card_id for r in screen._rows.values() if r.key.card_id is not None}


async def test_filter_by_r_below(svc: Services, tui_clock: FixedClock) -> None:
    _library(svc, tui_clock)
    async with running(svc) as (app, pilot):
        screen = await _browse(app, pilot, "R < 0.8")
        now = tui_clock.now()
        below = {
            int(card_id)  # type: ignore[call-overload]
            for card_id, s, last in q(
                "SELECT id, stability, last_review FROM card WHERE last_review IS NOT NULL"
            )
            if scheduler.retrievability(float(s), datetime.fromtimestamp(int(last), UTC), now) < 0.8  # type: ignore[arg-type]
        }
        assert below and _shown_cards(screen) == below
        assert "2 rows" in screen_text(app)


async def test_unsuspend_a_suspended_card(svc: Services, tui_clock: FixedClock) -> None:
    _library(svc, tui_clock)
    card = int(q("SELECT id FROM card ORDER BY id")[0][0])  # type: ignore[call-overload]
    svc.review.suspend(card)
    async with running(svc) as (app, pilot):
        screen = await _browse(app, pilot, "is:suspended")
        assert _shown_cards(screen) == {card}
        await pilot.press("X")
        await settle(pilot)
        assert q("SELECT suspended, queue FROM card WHERE id = ?", card) == [(0, 2)]
        assert _shown_cards(screen) == set()  # no longer suspended: out of the filter
        await pilot.press("u")  # and undone: suspended again
        await settle(pilot)
        assert q("SELECT suspended FROM card WHERE id = ?", card) == [(1,)]


async def test_trash_and_restore_a_unit_then_reject_a_confirmed_one(
    svc: Services, tui_clock: FixedClock
) -> None:
    units = _library(svc, tui_clock)
    async with running(svc) as (app, pilot):
        screen = await _browse(
            app, pilot, f"article:{q('SELECT article_id FROM unit WHERE id = ?', units[0])[0][0]}"
        )
        row = screen._current()
        assert row is not None
        await pilot.press("d")
        await settle(pilot)
        assert q("SELECT status FROM unit WHERE id = ?", row.key.unit_id) == [("trashed",)]
        assert q("SELECT DISTINCT queue FROM card WHERE unit_id = ?", row.key.unit_id) == [(-3,)]
        await pilot.press("f", *" is:trashed", "enter")
        await settle(pilot)
        assert {r.key.unit_id for r in screen._rows.values()} == {row.key.unit_id}
        await pilot.press("r")
        await settle(pilot)
        assert q("SELECT status FROM unit WHERE id = ?", row.key.unit_id) == [("confirmed",)]
        await pilot.press("f", *["backspace"] * 11, "enter")
        await settle(pilot)
        target = screen._current()
        assert target is not None
        await pilot.press("j")
        await settle(pilot)
        assert q("SELECT status FROM unit WHERE id = ?", target.key.unit_id) == [("rejected",)]
        assert q("SELECT DISTINCT active FROM card WHERE unit_id = ?", target.key.unit_id) == [(0,)]


async def test_delete_an_article_and_restore_it_from_the_trash(svc: Services, tui_clock: FixedClock) -> None:
    units = _library(svc, tui_clock)
    article = int(q("SELECT article_id FROM unit WHERE id = ?", units[0])[0][0])  # type: ignore[call-overload]
    async with running(svc) as (app, pilot):
        await _browse(app, pilot)
        await pilot.press("A")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert q("SELECT COUNT(*) FROM article_trash WHERE article_id = ?", article) == [(1,)]
        assert q("SELECT DISTINCT status FROM unit WHERE article_id = ?", article) == [("trashed",)]
        assert svc.library.article_count() == 0
        await opened(pilot, "w", TrashScreen)
        assert "deleted article" in screen_text(app) and "Purged on" in screen_text(app)
        await pilot.press("r")  # the first row: the deleted article
        await settle(pilot)
        assert q("SELECT COUNT(*) FROM article_trash") == [(0,)]
        assert q("SELECT DISTINCT status FROM unit WHERE article_id = ?", article) == [("confirmed",)]
        assert svc.library.article_count() == 1


async def test_open_card_info(svc: Services, tui_clock: FixedClock) -> None:
    _library(svc, tui_clock)
    async with running(svc) as (app, pilot):
        await _browse(app, pilot, "is:review")
        await pilot.press(*["o"] * 7)  # sort by R: the least recalled first
        await settle(pilot)
        assert screen_text(app).count("sorted by R now ↑") == 1
        await opened(pilot, "i", CardInfoModal)
        shown = screen_text(app)
        assert "R now" in shown and "Forgetting curve" in shown and shown.count("good") == 2, shown
        await opened(pilot, "escape", BrowseScreen)


async def test_search_and_the_palette_open_browse(svc: Services, tui_clock: FixedClock) -> None:
    units = _library(svc, tui_clock)
    content = str(q("SELECT content FROM unit WHERE id = ?", units[1])[0][0])
    async with running(svc) as (app, pilot):
        await pilot.press("slash", *content, "ctrl+b")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        assert {r.key.unit_id for r in screen._rows.values()} == {units[1]}  # both its cards
        assert len(screen._rows) == 2
        await pilot.press("escape")
        await settle(pilot)
        commands = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Browse", "Schedule"} <= commands


async def test_a_bulk_action_redraws_the_rows_it_changed(svc: Services, tui_clock: FixedClock) -> None:
    """The table keeps the lines it drew by row; after an action the rows come back under the same
    keys with a new state, and the line painted for the row is the new one (its card state
    column reads "suspended"), not the one kept from before. Another card is suspended already,
    so the column is that wide before the action and the widths (which key every line) stay."""
    _library(svc, tui_clock)
    svc.review.suspend(int(q("SELECT MIN(id) FROM card")[0][0]))  # type: ignore[call-overload]
    async with running(svc, size=(220, 40)) as (app, pilot):
        screen = await _browse(app, pilot)  # no filter: the row stays in it once suspended
        table = screen.query_one(RowTable)
        row = screen._current()
        assert row is not None and row.key.card_id is not None and row.state in ("new", "learning", "review")
        state = f" {row.state} "

        def painted_line() -> str:
            y = table.get_row_index(str(row.key)) + 1 - table.scroll_offset.y  # under the header
            return "".join(segment.text for segment in table.render_line(y))

        assert state in painted_line() and "suspended" not in painted_line()
        await pilot.press("x")
        await settle(pilot)
        assert q("SELECT suspended FROM card WHERE id = ?", row.key.card_id) == [(1,)]
        assert "suspended" in painted_line() and state not in painted_line(), painted_line()
