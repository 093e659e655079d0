"""Browse's service on a real library: pages by keyset in every sort, the filters, bulk actions
in one transaction with their undo, deleting and restoring an article, the trash, card info."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_review_support import add_units, graduate, q

import scheduler
from core.domain.browse import BrowseFilter, BrowseSort, BulkAction, Column, RowKey, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse import rows as browse_rows
from core.storage.db import write_transaction
from core.storage.models import Unit

DAY = 86400


def _library(services: Services, clock: FixedClock) -> dict[str, list[int]]:
    """Two articles: confirmed units (some reviewed, days ago), a proposal and a rejected one."""
    services.browse.tz = UTC
    services.review.tz = UTC
    services.review.fuzz = False
    confirmed = add_units(4, 2, now=int(clock.now().timestamp()))
    proposed = add_units(2, 1, now=int(clock.now().timestamp()), confirm=False)
    services.curation.reject(proposed[1])
    cards = [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]
    for card_id in cards[:4]:
        graduate(services, clock, card_id)
    clock.advance(days=9)
    services.review.start_session()  # burials of the answer day lifted
    return {"confirmed": confirmed, "proposed": proposed, "cards": cards}


def _all_rows(
    services: Services, sort: BrowseSort, f: BrowseFilter | None = None, limit: int = 3
) -> list[str]:
    keys: list[str] = []
    after = None
    while True:
        page = services.browse.page(f or BrowseFilter(), sort, after, limit=limit)
        keys.extend(str(r.key) for r in page.rows)
        if page.after is None:
            return keys
        after = page.after


@pytest.mark.parametrize("column", list(Column))
def test_every_sort_pages_every_row_once_in_order(
    services: Services, clock: FixedClock, column: Column
) -> None:
    _library(services, clock)
    total = services.browse.count(BrowseFilter())
    assert total == 8 + 2  # 8 cards, the proposal and the rejected proposal (no cards)
    for descending in (False, True):
        keys = _all_rows(services, BrowseSort(column, descending))
        assert len(keys) == total and len(set(keys)) == total, (column, descending, keys)
        whole = [
            str(r.key)
            for r in services.browse.page(BrowseFilter(), BrowseSort(column, descending), limit=100).rows
        ]
        assert keys == whole  # pages of 3 read by keyset = one page of everything


@pytest.mark.parametrize(
    "line", ["state:review", "is:suspended", "r<0.99", "status:rejected", "type:concept"]
)
def test_the_filter_led_read_gives_the_rows_of_the_index_walk(
    services: Services, clock: FixedClock, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the sort's index walk runs out of steps, the filter's rows sorted are the same rows."""
    lib = _library(services, clock)
    services.review.suspend(lib["cards"][1])
    f = services.browse.parse(line).filter
    for column in (Column.ADDED, Column.DUE, Column.STATUS, Column.ARTICLE):
        for descending in (False, True):
            walked = _all_rows(services, BrowseSort(column, descending), f)
            monkeypatch.setattr(browse_rows, "ORDER_BUDGET_S", -1.0)
            led = _all_rows(services, BrowseSort(column, descending), f)
            monkeypatch.undo()
            assert walked and led == walked, (line, column, descending)


def test_r_below_keeps_exactly_the_cards_under_it(services: Services, clock: FixedClock) -> None:
    _library(services, clock)
    parsed = services.browse.parse("R < 0.95")
    assert parsed.filter.retrievability_below == 0.95 and not parsed.problems
    rows = services.browse.page(parsed.filter, BrowseSort(Column.R, False)).rows
    now = clock.now()
    expected = set()
    for card_id, stability, last in q(
        "SELECT id, stability, last_review FROM card WHERE last_review IS NOT NULL"
    ):
        r = scheduler.retrievability(float(stability), datetime.fromtimestamp(int(last), UTC), now)  # type: ignore[arg-type]
        if r < 0.95:
            expected.add(card_id)
    assert expected and {r.key.card_id for r in rows} == expected
    assert all(r.retrievability is not None and r.retrievability < 0.95 for r in rows)
    assert [r.retrievability for r in rows] == sorted(r.retrievability for r in rows)  # type: ignore[type-var]


def test_filter_terms(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    b = services.browse
    assert b.count(b.parse("is:proposed").filter) == 1
    assert b.count(b.parse("status:rejected").filter) == 1
    assert b.count(b.parse("is:new").filter) == 4
    assert b.count(b.parse("state:review").filter) == 4
    assert b.count(b.parse("is:suspended").filter) == 0
    assert b.count(b.parse("is:yours").filter) == 0
    assert b.count(b.parse("type:concept").filter) == 10
    content = str(q("SELECT content FROM unit WHERE id = ?", lib["confirmed"][2])[0][0])
    assert b.count(b.parse(content).filter) == 2  # words in the content (both cards of the unit)
    question = str(
        q("SELECT question FROM question WHERE unit_id = ? ORDER BY position", lib["confirmed"][2])[0][0]
    )
    assert b.count(b.parse(question).filter) == 1  # ... or the question
    assert b.count(b.parse("reviewed:30").filter) == 4
    assert b.count(b.parse("added:1").filter) == 0  # added nine days ago
    assert b.count(b.parse("due<0").filter) == 4  # the reviewed cards are overdue
    assert b.parse("colour:red").problems and b.parse("added>yesterday").problems
    with write_transaction():
        Unit.update(tags_json='["Biology"]').where(Unit.id == lib["confirmed"][0]).execute()
    assert b.count(b.parse("tag:biology").filter) == 2


def _cards() -> list[tuple[object, ...]]:
    return q("SELECT * FROM card ORDER BY id")


def test_suspend_the_whole_filter_then_undo_puts_every_row_back(
    services: Services, clock: FixedClock
) -> None:
    _library(services, clock)
    before = _cards()
    f = services.browse.parse("state:review").filter
    result = services.browse.act(BulkAction.SUSPEND, Selection(f))
    assert (result.cards, result.units) == (4, 0)
    assert q("SELECT COUNT(*) FROM card WHERE suspended = 1 AND queue = -1") == [(4,)]
    again = services.browse.act(BulkAction.SUSPEND, Selection(f))
    assert again.journal_id == 0  # nothing changed, nothing to undo
    undone = services.undo.undo(Scope.BULK)
    assert undone is not None and undone.action == "suspend"
    assert _cards() == before
    assert services.undo.undo(Scope.BULK) is None


def test_unsuspend_a_card_suspended_in_review(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    card = lib["cards"][0]
    services.review.suspend(card)
    rows = services.browse.page(services.browse.parse("is:suspended").filter, BrowseSort()).rows
    assert [r.key.card_id for r in rows] == [card]
    services.browse.act(BulkAction.UNSUSPEND, Selection(keys=(rows[0].key,)))
    assert q("SELECT suspended, queue FROM card WHERE id = ?", card) == [(0, 2)]


def test_trash_restore_reject_and_confirm_units(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    unit = lib["confirmed"][0]
    logs = q("SELECT COUNT(*) FROM review_log")
    key = (RowKey(None, unit),)
    assert services.browse.act(BulkAction.TRASH, Selection(keys=key)).units == 1
    assert q("SELECT status, status_before_trash FROM unit WHERE id = ?", unit) == [("trashed", "confirmed")]
    assert q("SELECT DISTINCT active, queue FROM card WHERE unit_id = ?", unit) == [(0, -3)]
    services.browse.act(BulkAction.RESTORE, Selection(keys=key))
    assert q("SELECT status FROM unit WHERE id = ?", unit) == [("confirmed",)]
    assert q("SELECT DISTINCT active FROM card WHERE unit_id = ?", unit) == [(1,)]
    services.browse.act(BulkAction.REJECT, Selection(keys=key))
    assert q("SELECT status FROM unit WHERE id = ?", unit) == [("rejected",)]
    assert q("SELECT DISTINCT queue FROM card WHERE unit_id = ?", unit) == [(-3,)]
    assert q("SELECT COUNT(*) FROM review_log") == logs  # the history is kept
    services.browse.act(BulkAction.CONFIRM, Selection(keys=key))
    assert q("SELECT DISTINCT queue FROM card WHERE unit_id = ?", unit) == [(2,)]


def test_pin_retimes_and_tag_is_searchable_and_undone(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    unit = lib["confirmed"][0]
    due = q("SELECT due FROM card WHERE unit_id = ? ORDER BY id", unit)
    services.browse.act(BulkAction.PIN, Selection(keys=(RowKey(None, unit),)))
    assert q("SELECT pinned FROM unit WHERE id = ?", unit) == [(1,)]
    assert q("SELECT due FROM card WHERE unit_id = ? ORDER BY id", unit) < due  # a higher retention: sooner
    services.undo.undo(Scope.BULK)
    assert q("SELECT due FROM card WHERE unit_id = ? ORDER BY id", unit) == due
    services.browse.act(BulkAction.TAG, Selection(keys=(RowKey(None, unit),)), tag="Cells")
    assert q("SELECT tags_json FROM unit WHERE id = ?", unit) == [('["cells"]',)]
    assert any(h.unit_id == unit for h in services.search.search("cells"))
    services.undo.undo(Scope.BULK)
    assert q("SELECT tags_json FROM unit WHERE id = ?", unit) == [("[]",)]


def test_forget_and_set_due(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    card = lib["cards"][0]
    sel = Selection(keys=(RowKey(card, 0),))
    services.browse.act(BulkAction.SET_DUE, sel, days=3)
    now = int(clock.now().timestamp())
    assert q("SELECT due FROM card WHERE id = ?", card) == [(now + 3 * DAY,)]
    services.browse.act(BulkAction.FORGET, sel)
    assert q("SELECT state, queue, stability, last_review FROM card WHERE id = ?", card) == [
        (0, 0, None, None)
    ]
    assert q("SELECT COUNT(*) FROM review_log WHERE card_id = ?", card) == [(2,)]  # history kept


def test_delete_an_article_and_restore_it(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    article = int(q("SELECT article_id FROM unit WHERE id = ?", lib["confirmed"][0])[0][0])  # type: ignore[arg-type]
    shown = services.library.article_count()
    result = services.browse.delete_article(article)
    assert result.units == 4 and result.cards == 8
    assert services.library.article_count() == shown - 1
    assert article not in [a.id for a in services.library.articles()]
    assert [a[0] for a in services.browse.deleted_articles()] == [article]
    assert len(services.browse.trash()) == 4
    services.browse.restore_article(article)
    assert services.library.article_count() == shown
    assert q("SELECT DISTINCT status FROM unit WHERE article_id = ?", article) == [("confirmed",)]
    # deleted again and left 31 days: purged with everything of it at the next open
    services.browse.delete_article(article)
    clock.advance(days=31)
    assert services.curation.purge_expired_trash() == 4
    assert q("SELECT COUNT(*) FROM article WHERE id = ?", article) == [(0,)]


def test_purge_now(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    unit = lib["confirmed"][1]
    services.browse.act(BulkAction.TRASH, Selection(keys=(RowKey(None, unit),)))
    assert services.browse.purge([unit, lib["confirmed"][2]]) == 1  # only what is in the trash
    assert q("SELECT COUNT(*) FROM unit WHERE id = ?", unit) == [(0,)]


def test_card_info(services: Services, clock: FixedClock) -> None:
    lib = _library(services, clock)
    info = services.browse.card_info(lib["cards"][0])
    assert info is not None and len(info.reviews) == 2
    assert info.reviews[0].retrievability is None and info.reviews[1].retrievability is not None
    assert info.retrievability is not None and 0 < info.retrievability < 1
    assert info.card.stability and info.interval_days and info.curve[0] == (0.0, 1.0)
    assert services.browse.card_info(10**6) is None
