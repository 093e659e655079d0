"""A trash or a reject of units in bulk takes every card of theirs out of review in one pass
(core.storage.browse.unit_actions._leave_review): each card's queue by the one rule
(inactive, whatever its suspension or burial), no second statement over the cards (a 100k-card
trash paid a join per card and a second scan) and no card snapshot: undo brings the cards back
with their units by the rule. Undo exactness for every action is tests/test_browse_speed.py's."""

from __future__ import annotations

import pytest
from test_own_cards_save import traced  # the SQL this thread runs meanwhile
from test_review_support import add_units, q

from core.domain.browse import BrowseFilter, BulkAction, RowKey, Selection
from core.domain.review import Queue
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services


def _cards() -> list[tuple[int, int]]:
    return [(int(r[0]), int(r[1])) for r in q("SELECT id, unit_id FROM card ORDER BY id")]


@pytest.mark.parametrize("action", [BulkAction.TRASH, BulkAction.REJECT])
def test_a_bulk_trash_or_reject_takes_every_card_out_of_review_in_one_write(
    services: Services, clock: FixedClock, action: BulkAction
) -> None:
    units = add_units(5, 2, now=int(clock.now().timestamp()))
    cards = _cards()
    services.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter(), (RowKey(cards[0][0], cards[0][1]),)))
    services.browse.act(BulkAction.BURY, Selection(BrowseFilter(), (RowKey(cards[2][0], cards[2][1]),)))
    services.curation.reject(units[4])  # its cards inactive already
    assert {int(r[0]) for r in q("SELECT queue FROM card")} == {
        Queue.SUSPENDED,
        Queue.BURIED,
        Queue.NEW,
        Queue.INACTIVE,
    }
    with traced() as sql:
        result = services.browse.act(action, Selection(BrowseFilter()))
    changed_units = units if action == BulkAction.TRASH else units[:4]  # a rejected unit stays as it is
    assert result.cards == sum(1 for _, u in cards if u in changed_units)
    assert q("SELECT DISTINCT active, queue FROM card") == [(0, Queue.INACTIVE)]
    # (a trigger's statements are traced with their statement's text: once each)
    card_writes = sorted({s for s in sql if s.lstrip().upper().startswith("UPDATE CARD")})
    assert len(card_writes) == 1, card_writes
    assert " unit" not in card_writes[0].split("WHERE")[0]  # no join to the units
    assert q("SELECT COUNT(*) FROM bulk_card WHERE journal_id = ?", result.journal_id) == [
        (0,)
    ]  # no snapshot
    assert services.undo.undo(Scope.BULK) is not None
    queues = dict(q("SELECT id, queue FROM card"))
    assert queues[cards[0][0]] == Queue.SUSPENDED and queues[cards[2][0]] == Queue.BURIED
    assert {queues[c] for c, u in cards if u == units[4]} == {Queue.INACTIVE}


def _card_writes(sql: list[str]) -> list[str]:
    return sorted({s for s in sql if s.lstrip().upper().startswith("UPDATE CARD")})


def test_the_undo_of_a_trash_brings_the_cards_back_by_the_rule_in_one_write(
    services: Services, clock: FixedClock
) -> None:
    """Undo (and restore) put a unit's cards back active with their queue in one pass over them,
    a burial that ended meanwhile lifted in the same pass (a second pass re-read 100k cards)."""
    units = add_units(3, 2, now=int(clock.now().timestamp()))
    cards = _cards()
    services.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter(), (RowKey(cards[0][0], cards[0][1]),)))
    services.browse.act(BulkAction.BURY, Selection(BrowseFilter(), (RowKey(cards[2][0], cards[2][1]),)))
    services.curation.reject(units[2])  # its cards stay inactive: the trash and its undo leave it rejected
    services.browse.act(BulkAction.TRASH, Selection(BrowseFilter()))
    clock.advance(days=2)  # the burial ends while the unit is in the trash
    with traced() as sql:
        assert services.undo.undo(Scope.BULK) is not None
    assert len(_card_writes(sql)) == 1, _card_writes(sql)
    queues = dict(q("SELECT id, queue FROM card"))
    assert queues[cards[0][0]] == Queue.SUSPENDED and queues[cards[2][0]] == Queue.NEW  # burial over
    assert {queues[c] for c, u in cards if u == units[2]} == {Queue.INACTIVE}
    assert {queues[c] for c, u in cards if u != units[2] and c not in (cards[0][0], cards[2][0])} == {
        Queue.NEW
    }
