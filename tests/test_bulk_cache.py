"""A bulk write runs with a page cache of BULK_CACHE_KIB (core.storage.browse.journal.bulk_cache):
a forget of 100k cards rewrites entries all over seven card indexes, and in the usual cache it
re-read the pages it had just written (4.2-4.5 s CPU for its UPDATE on the 1M-card bench
library, 2.4-2.8 s with the larger one). Each write's card statements run inside it, and the
connection's usual cache is back after it, also when the block fails."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_own_cards_save import traced  # the SQL this thread runs meanwhile
from test_review_support import due_one_a_day, q

from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse.journal import BULK_CACHE_KIB, bulk_cache
from core.storage.db import db

_LARGE = f"PRAGMA cache_size = -{BULK_CACHE_KIB}"


def _cache() -> int:
    return int(db.execute_sql("PRAGMA cache_size").fetchone()[0])


def _library(services: Services, clock: FixedClock) -> None:
    due_one_a_day(services, clock, 6)  # review cards: a reschedule has some to re-time


WRITES: dict[str, Callable[[Services], object]] = {
    "suspend": lambda s: s.browse.act(BulkAction.SUSPEND, Selection(BrowseFilter())),
    "forget": lambda s: s.browse.act(BulkAction.FORGET, Selection(BrowseFilter())),
    "trash": lambda s: s.browse.act(BulkAction.TRASH, Selection(BrowseFilter())),
    "delete article": lambda s: s.browse.delete_article(int(q("SELECT MIN(id) FROM article")[0][0])),
    "reschedule": lambda s: s.schedule.reschedule(0.8),
}


@pytest.mark.parametrize("name", list(WRITES))
def test_a_bulk_write_and_its_undo_change_the_cards_inside_the_larger_cache(
    services: Services, clock: FixedClock, name: str
) -> None:
    _library(services, clock)
    usual = _cache()
    for write in (WRITES[name], lambda s: s.undo.undo(Scope.BULK)):
        with traced() as sql:
            write(services)
        card_writes = [i for i, s in enumerate(sql) if s.lstrip().upper().startswith("UPDATE CARD")]
        assert card_writes, sql
        larger = [i for i, s in enumerate(sql) if s == _LARGE]
        back = [i for i, s in enumerate(sql) if s == f"PRAGMA cache_size = {usual}"]
        assert larger and back, sql
        assert larger[0] < card_writes[0] and card_writes[-1] < back[-1]
        assert _cache() == usual


def test_the_usual_cache_is_back_after_a_failed_block(services: Services) -> None:
    usual = _cache()
    with pytest.raises(ZeroDivisionError), bulk_cache():
        assert _cache() == -BULK_CACHE_KIB
        _ = 1 // 0
    assert _cache() == usual
