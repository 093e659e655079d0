"""Decks: a unit moved to another article's deck (Browse "move to deck") is in that deck for
Browse's article filter and column and MCP's due list, keeps its source article (evidence,
Article screen), moves back, and every move is one undoable bulk action."""

from __future__ import annotations

from test_review_support import add_units, q

from core.domain.browse import BrowseFilter, BrowseSort, BulkAction, Column, RowKey, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.proposals import due_cards

ADDED = BrowseSort(Column.ADDED)


def _article(unit_id: int) -> int:
    return int(str(q("SELECT article_id FROM unit WHERE id = ?", unit_id)[0][0]))


def _title(article_id: int) -> str:
    return str(q("SELECT title FROM article WHERE id = ?", article_id)[0][0])


def _deck(unit_id: int) -> object:
    return q("SELECT deck_id FROM unit WHERE id = ?", unit_id)[0][0]


def _keys(unit_id: int) -> tuple[RowKey, ...]:
    return tuple(RowKey(int(str(c)), unit_id) for (c,) in q("SELECT id FROM card WHERE unit_id = ?", unit_id))


def _units(services: Services, f: BrowseFilter) -> set[int]:
    return {r.key.unit_id for r in services.browse.page(f, ADDED, None, limit=50).rows}


def test_moving_a_card_moves_its_unit_into_the_other_deck_and_undo_and_back_return_it(
    services: Services, clock: FixedClock
) -> None:
    now = int(clock.now().timestamp())
    first, second = add_units(2, 2, now=now), add_units(1, 1, now=now)
    a1, a2 = _article(first[0]), _article(second[0])
    moved = first[0]
    result = services.browse.move_to_deck(Selection(BrowseFilter(), _keys(moved)[:1]), a2)
    assert (result.action, result.units, result.cards) == ("move_deck", 1, 0)
    assert (_article(moved), _deck(moved)) == (a1, a2)  # the source is kept
    assert _units(services, BrowseFilter(article_ids=(a2,))) == {moved, second[0]}
    assert _units(services, BrowseFilter(article_ids=(a1,))) == {first[1]}
    assert _units(services, services.browse.parse(f'article:"{_title(a2)}"').filter) == {moved, second[0]}
    rows = [
        r for r in services.browse.page(BrowseFilter(), ADDED, None, limit=50).rows if r.key.unit_id == moved
    ]
    assert {(r.article_id, r.deck_id, r.deck_title) for r in rows} == {(a1, a2, _title(a2))}

    # into the deck it is in: nothing changes, nothing to undo
    assert services.browse.move_to_deck(Selection(BrowseFilter(), _keys(moved)), a2).journal_id == 0

    undone = services.undo.undo(Scope.BULK)
    assert undone is not None and undone.action == "move_deck"
    assert _deck(moved) is None
    assert _units(services, BrowseFilter(article_ids=(a1,))) == set(first)

    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(moved)), a2)
    back = services.browse.move_to_deck(Selection(BrowseFilter(article_ids=(a2,))), None)
    assert (back.action, back.units) == (BulkAction.SOURCE_DECK.value, 1)
    assert _deck(moved) is None
    # moving to its own source article is the same way back: stored as no override
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(moved)), a2)
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(moved)), a1)
    assert _deck(moved) is None


def test_the_due_list_goes_by_the_deck(services: Services, clock: FixedClock) -> None:
    now = int(clock.now().timestamp())
    first, second = add_units(2, 2, now=now), add_units(1, 1, now=now)
    a1, a2 = _article(first[0]), _article(second[0])
    q("UPDATE card SET state = 2, queue = 2, due = ?", now - 60)
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(first[0])), a2)
    total, cards = due_cards(now, 50, (a2,))
    assert total == 3 and {c.unit_id for c, _ in cards} == {first[0], second[0]}
    assert {(s.article_id, s.deck_id) for _, s in cards} == {(a1, a2), (a2, None)}  # source kept, deck beside
    assert due_cards(now, 50, (a1,))[0] == 2


def test_a_purged_deck_article_sends_its_units_home_and_leaves_every_undo_working(
    services: Services, clock: FixedClock
) -> None:
    now = int(clock.now().timestamp())
    first, second = add_units(1, 1, now=now), add_units(1, 1, now=now)
    a2 = _article(second[0])
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(first[0])), a2)
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(first[0])), None)  # journal: was a2
    services.browse.move_to_deck(Selection(BrowseFilter(), _keys(first[0])), a2)
    q("DELETE FROM article WHERE id = ?", a2)  # as the purge of a deleted article does
    assert _deck(first[0]) is None  # back in its own deck
    for action in ("move_deck", "source_deck", "move_deck"):  # each undo still goes through
        undone = services.undo.undo(Scope.BULK)
        assert undone is not None and undone.action == action
        assert _deck(first[0]) is None
    assert q("PRAGMA foreign_key_check") == []


def test_the_article_filter_finds_its_units_through_the_article_index(
    services: Services, clock: FixedClock
) -> None:
    """The deck rule's "own units not moved" half is read by article, not by walking every unit
    with no deck (all but a few: the unit(deck) index's NULL entries; a 100k-card bulk action on
    500 articles of a million cards spent 0.5 s CPU building its target so, 0.2 s by article)."""
    from core.storage.browse.where import CARD, target_sql
    from core.storage.db import db

    now = int(clock.now().timestamp())
    first = add_units(2, 2, now=now)
    many = (_article(first[0]), *range(10_000, 10_499))  # 500 articles (the planner weighs the list)
    target = target_sql(BrowseFilter(article_ids=many), CARD, now=now, r_ratio=None)
    assert target is not None
    plan = [str(r[3]) for r in db.execute_sql("EXPLAIN QUERY PLAN " + target[0], target[1])]
    units = [step for step in plan if step.startswith("SEARCH u ")]
    assert any("unit_article_id" in step for step in units), plan
