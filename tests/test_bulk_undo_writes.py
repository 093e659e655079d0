"""The undo of a card action writes back only the columns the action wrote (actions.WRITES),
with the queue that follows from them: each column written moves its entries in every index
holding it, so an undo of a forget that put back all fifteen snapshotted columns also moved
100k cards' entries in the reps and lapses sort indexes for nothing. That the rows come back
exactly is tests/test_browse_speed.py's."""

from __future__ import annotations

import re

import pytest
from test_browse_speed import _varied_cards
from test_own_cards_save import traced  # the SQL this thread runs meanwhile

from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse.actions import CARD_ACTIONS, WRITES


def _set_columns(statement: str) -> set[str]:
    assigned = statement.split(" SET ", 1)[1].split(" FROM ")[0].split(" WHERE ")[0]
    return set(re.findall(r"(?:^|, )(\w+) = ", assigned))


@pytest.mark.parametrize("action", list(CARD_ACTIONS))
def test_an_undo_writes_back_only_what_its_action_wrote(
    services: Services, clock: FixedClock, action: BulkAction
) -> None:
    _varied_cards(services, clock, n_units=10)
    first = {BulkAction.UNBURY: BulkAction.BURY, BulkAction.ADVANCE: BulkAction.POSTPONE}.get(action)
    if first:  # cards for it to change: buried ones, review cards due later
        services.browse.act(first, Selection(BrowseFilter()), days=3)
    result = services.browse.act(action, Selection(BrowseFilter()), days=3)
    assert result.cards
    with traced() as sql:
        assert services.undo.undo(Scope.BULK) is not None
    # the snapshot back (traced again with each trigger it fires: once each)
    [write] = {s for s in sql if s.startswith("UPDATE card") and "FROM bulk_card" in s}
    assert _set_columns(write) == {*WRITES[action.value], "queue"}
