"""The card-queue rule has one source: its Python and SQL forms agree on every combination, and
card rows are mapped from the domain Card's fields (read, written and journalled as they are)."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import fields, replace

from core.domain.card import Card, CardSource, Queue, State, source_fields
from core.services.bootstrap import Services
from core.storage.converters import SOURCE_COLUMNS
from core.storage.review import cards, writes
from core.storage.review.models import Card as CardTable
from core.storage.review.models import queue_after, queue_for, queue_sql
from tests.conftest import SAMPLES

NOW = 1_000_000


def test_queue_sql_and_queue_for_agree_on_every_state_and_flag() -> None:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE card (state INTEGER, active INTEGER, suspended INTEGER, buried_until INTEGER)")
    combos = list(itertools.product(State, (0, 1), (0, 1), (None, NOW - 1, NOW, NOW + 1)))
    con.executemany("INSERT INTO card VALUES (?, ?, ?, ?)", combos)
    rows = con.execute(
        f"SELECT state, active, suspended, buried_until, {queue_sql()} FROM card", {"now": NOW}
    )
    seen = set()
    for state, active, suspended, buried_until, queue in rows:
        buried = buried_until is not None and buried_until > NOW
        expected = queue_for(state, active=bool(active), suspended=bool(suspended), buried=buried)
        assert queue == expected, (state, active, suspended, buried_until)
        seen.add(Queue(queue))
    assert seen == set(Queue)  # every queue is reached: the comparison covers the whole rule


def test_queue_sql_takes_a_new_active_value_and_known_unburied_cards() -> None:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE card (state INTEGER, active INTEGER, suspended INTEGER, buried_until INTEGER)")
    con.execute("INSERT INTO card VALUES (2, 0, 0, ?)", (NOW + 5,))
    [(inactive, restored)] = con.execute(
        f"SELECT {queue_sql()}, {queue_sql(active=':a')} FROM card", {"now": NOW, "a": 1}
    )
    assert (inactive, restored) == (Queue.INACTIVE, Queue.BURIED)
    [(unburied,)] = con.execute(f"SELECT {queue_sql(active=':a', buried=None)} FROM card", {"a": 1})
    assert unburied == Queue.REVIEW


def test_queue_after_is_the_queue_of_the_row_an_update_writes_beside_a_snapshot() -> None:
    """A bulk action and its undo write the queue in the same UPDATE as the flags it follows:
    SET sees the row as it was, so queue_after reads the new values, the rest from the row."""
    con = sqlite3.connect(":memory:")
    for table in ("card", "snap"):
        con.execute(
            f"CREATE TABLE {table} (id INTEGER, state INTEGER, active INTEGER, suspended INTEGER, "
            "buried_until INTEGER, queue INTEGER)"
        )
    combos = list(itertools.product(State, (0, 1), (0, 1), (None, NOW - 1, NOW + 1)))
    pairs = list(itertools.product(combos, combos))
    con.executemany(
        "INSERT INTO card VALUES (?, ?, ?, ?, ?, 99)", [(i, *old) for i, (old, _) in enumerate(pairs)]
    )
    con.executemany(
        "INSERT INTO snap VALUES (?, ?, ?, ?, ?, 99)", [(i, *new) for i, (_, new) in enumerate(pairs)]
    )
    restored = {"suspended": "s.suspended", "buried_until": "s.buried_until", "state": "s.state"}
    con.execute(
        "UPDATE card SET suspended = s.suspended, buried_until = s.buried_until, state = s.state, "
        f"queue = ({queue_after(restored, row='card.')}) FROM snap s WHERE s.id = card.id",
        {"now": NOW},
    )
    rows = con.execute("SELECT state, active, suspended, buried_until, queue FROM card")
    for state, active, suspended, buried_until, queue in rows:
        buried = buried_until is not None and buried_until > NOW
        assert queue == queue_for(state, active=bool(active), suspended=bool(suspended), buried=buried)
    con.execute(f"UPDATE card SET suspended = 1, queue = ({queue_after({'suspended': '1'})})", {"now": NOW})
    assert {q for (q,) in con.execute("SELECT DISTINCT queue FROM card WHERE active = 1")} == {
        Queue.SUSPENDED
    }


def test_every_card_field_is_a_column_of_the_card_table() -> None:
    columns = {f.column_name for f in CardTable._meta.sorted_fields}
    assert {f.name for f in fields(Card)} <= columns


def test_the_changing_columns_are_the_card_fields_not_set_when_it_is_made() -> None:
    """CHANGING is read from the card table (opening the library needs no domain dataclass): it
    must be every Card field but MADE, in Card's order, and no index key."""
    from core.storage.review.models import CHANGING, INDEX_KEYS, MADE

    assert tuple(f.name for f in fields(Card) if f.name not in MADE) == CHANGING
    assert not set(CHANGING) & set(INDEX_KEYS)


def test_a_card_row_survives_a_write_and_a_read_unchanged(services: Services) -> None:
    [outcome] = services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="offline")
    unit = services.library.units(outcome.article_id)[0]
    assert services.curation.accept(unit.id)
    [row] = cards.cards_of_unit(unit.id)[:1]
    assert row.queue == Queue.NEW and row.active and not row.suspended
    changed = replace(row, state=State.REVIEW, step=None, stability=12.5, difficulty=4.25, due=NOW + 86400,
                      last_review=NOW, reps=3, lapses=1, suspended=True, leech=True, buried_until=NOW + 60)  # fmt: skip
    writes.update_cards("setup", [changed], NOW)
    again = cards.get_card(row.id)
    assert again == replace(changed, queue=Queue.SUSPENDED)  # the queue follows the rule
    assert all(type(getattr(again, f.name)) is bool for f in fields(Card) if f.type == "bool")


def test_a_card_source_is_read_by_its_fields_names() -> None:
    """The SELECT list of a CardSource is made from its fields, in their order."""
    assert tuple(SOURCE_COLUMNS) == tuple(f.name for f in fields(CardSource))


def test_review_shows_the_card_source_with_the_card(services: Services) -> None:
    [outcome] = services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="offline")
    unit = services.library.units(outcome.article_id)[0]
    assert services.curation.accept(unit.id)
    item = services.review.next_card()
    assert item is not None
    source = cards.card_source(item.card.id)
    assert source is not None and source.unit_id == item.card.unit_id
    assert source_fields(item) == source_fields(source)  # ReviewItem is the source, extended
    assert item.context == source.context and source.article_title in item.context


def test_the_bulk_journal_keeps_card_columns_in_their_stored_order() -> None:
    """A bulk journal's `after` is a json_array of these columns in this order, kept in users'
    files since schema 9: the order made from Card's fields must stay the one written then."""
    from core.storage.browse.models import CARD_COLUMNS

    assert CARD_COLUMNS == (
        "state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "queue",
        "active", "suspended", "leech", "buried_until", "sbucket", "t90",
    )  # fmt: skip
