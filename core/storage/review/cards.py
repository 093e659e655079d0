"""Card rows: reads, the cards kept in step with their unit (inside curation's transactions),
the end of burials, and the review settings.

The review actions that journal what they change for undo (answer, suspend, pin, undo, ...)
are writes.py's. Hot paths use plain SQL by primary key or index; nothing here scans all
cards. The session's queries (what is due, in which order) live in queue.py.

A card row is the domain's `Card` (core.domain.card): the columns read, written and journalled
are its fields, mapped by name at the edge (core.storage.converters), so a new column is a field
there and one in models.Card.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from core.domain.card import Card, CardSource, Queue, State
from core.storage import converters
from core.storage.converters import SOURCE_JOINS, card, card_columns, card_dict, source_columns
from core.storage.db import db, write_transaction
from core.storage.errors import translated
from core.storage.review.models import queue_for, queue_sql, stability_bucket, t90


def _new_card(question_id: int, unit_id: int, now: int, *, active: bool) -> Card:
    """A card never answered: new cards are shown in the order they were made (`due`)."""
    return Card(
        id=0,
        unit_id=unit_id,
        question_id=question_id,
        state=State.NEW,
        step=None,
        stability=None,
        difficulty=None,
        due=now,
        last_review=None,
        reps=0,
        lapses=0,
        queue=queue_for(State.NEW, active=active, suspended=False, buried=False),
        active=active,
        suspended=False,
        leech=False,
        buried_until=None,
        created_at=now,
    )


@dataclass(frozen=True, slots=True)
class LogRow:
    rating: int
    reviewed_at: int
    wall_at: int
    state_before: int
    elapsed_days: int
    scheduled_days: int
    duration_ms: int | None
    clock_skew_s: int


_SELECT = f"SELECT {card_columns()} FROM card c"


@translated
def row_queue(r: Card, now: int) -> Queue:
    buried = r.buried_until is not None and r.buried_until > now
    return queue_for(r.state, active=r.active, suspended=r.suspended, buried=buried)


@translated
def stored_columns(r: Card, now: int) -> dict[str, Any]:
    """The card's columns as stored: its fields, and the columns derived from them."""
    return {
        **card_dict(r),
        "queue": int(row_queue(r, now)),
        "sbucket": stability_bucket(r.stability),
        "t90": t90(r.last_review, r.stability),
    }


def _exec(sql: str, params: dict[str, Any] | Sequence[Any] = ()) -> Any:
    return db.execute_sql(sql, params)


# --- kept in step with curation (called inside curation transactions) ---------------------


@translated
def ensure_cards(unit_id: int, now: int) -> int:
    """Create a new card for every question of a confirmed unit that has none; return how many.
    Called inside the caller's transaction (accept, auto-accept, edit of a confirmed unit)."""
    row = _exec("SELECT status FROM unit WHERE id = ?", (unit_id,)).fetchone()
    if row is None:
        return 0
    return create_cards(unit_id, now, active=row[0] == "confirmed")


@translated
def create_cards(unit_id: int, now: int, *, active: bool) -> int:
    """A new card for every question of the unit that has none, in question order: one
    INSERT ... SELECT, no read first. Returns how many. Inside the caller's transaction."""
    columns = stored_columns(_new_card(0, unit_id, now, active=active), now)
    del columns["id"], columns["question_id"]
    cursor = _exec(
        f"INSERT INTO card (question_id, {', '.join(columns)}) "
        f"SELECT q.id, {', '.join(':' + n for n in columns)} FROM question q "
        "LEFT JOIN card c ON c.question_id = q.id WHERE q.unit_id = :unit_id AND c.id IS NULL "
        "ORDER BY q.position",
        columns,
    )
    return int(cursor.rowcount)


@translated
def on_unit_status(unit_id: int, status: str, now: int) -> None:
    """Keep cards in step with the unit: rejected/trashed units' cards leave the queue,
    a restored or re-confirmed unit's cards come back. Inside the caller's transaction."""
    if status == "confirmed":
        ensure_cards(unit_id, now)
    _exec(
        f"UPDATE card SET active = :a, queue = ({queue_sql(active=':a')}) WHERE unit_id = :u",
        {"a": 1 if status == "confirmed" else 0, "u": unit_id, "now": now},
    )


# --- reads -------------------------------------------------------------------------------


@translated
def get_card(card_id: int) -> Card | None:
    t = _exec(f"{_SELECT} WHERE id = ?", (card_id,)).fetchone()
    return card(t) if t else None


@translated
def cards_of_unit(unit_id: int) -> list[Card]:
    return [card(t) for t in _exec(f"{_SELECT} WHERE unit_id = ? ORDER BY id", (unit_id,))]


@translated
def cards_where(queue: Queue, limit: int = 1000, *, leech_only: bool = False) -> list[Card]:
    extra = " AND leech = 1" if leech_only else ""
    sql = f"{_SELECT} WHERE queue = ?{extra} ORDER BY id LIMIT ?"
    return [card(t) for t in _exec(sql, (int(queue), limit))]


@translated
def unit_siblings(of: Card) -> list[Card]:
    """The other new and review cards of the card's unit (an answer buries them)."""
    return [
        card(t)
        for t in _exec(
            f"{_SELECT} WHERE unit_id = ? AND id != ? AND queue IN (?, ?)",
            (of.unit_id, of.id, int(Queue.NEW), int(Queue.REVIEW)),
        )
    ]


@translated
def card_source(card_id: int) -> CardSource | None:
    """What the card asks and where it comes from: its question, unit and article, with the place
    of the unit's first quote (the paragraph's locator: the card's context line)."""
    t = _exec(f"SELECT {source_columns()} FROM card c {SOURCE_JOINS} WHERE c.id = ?", (card_id,)).fetchone()
    return converters.card_source(t) if t else None


@translated
def unit_pinned(unit_id: int) -> bool:
    t = _exec("SELECT pinned FROM unit WHERE id = ?", (unit_id,)).fetchone()
    return bool(t and t[0])


@translated
def review_logs() -> Iterator[tuple[int, int, int]]:
    """(card id, rating, reviewed_at) of every review, by card then time (the optimizer's input)."""
    yield from _exec("SELECT card_id, rating, reviewed_at FROM review_log ORDER BY card_id, reviewed_at, id")


@translated
def unbury(now: int, *, wait: bool = True) -> int:
    """Bring back cards whose burial ended. Returns how many. wait=False: DatabaseBusy at once,
    nothing changed, when another connection holds the write lock (write_transaction)."""
    buried = int(Queue.BURIED)
    if not _exec(
        "SELECT 1 FROM card WHERE queue = ? AND buried_until <= ? LIMIT 1", (buried, now)
    ).fetchone():
        return 0
    with write_transaction(wait=wait):
        cur = _exec(
            f"UPDATE card SET buried_until = NULL, queue = ({queue_sql(buried=None)}) "
            "WHERE queue = :q AND buried_until <= :now",
            {"q": buried, "now": now},
        )
    return int(cur.rowcount or 0)


@translated
def get_setting(key: str) -> Any:
    t = _exec("SELECT value_json FROM setting WHERE key = ?", (key,)).fetchone()
    return json.loads(t[0]) if t else None


@translated
def put_setting(key: str, value: Any) -> None:
    with write_transaction():
        _exec("INSERT OR REPLACE INTO setting (key, value_json) VALUES (?, ?)", (key, json.dumps(value)))


@translated
def review_histories() -> dict[int, list[tuple[int, int]]]:
    """Card id -> its answers as (rating, reviewed_at), oldest first."""
    histories: dict[int, list[tuple[int, int]]] = {}
    for card_id, rating, at in review_logs():
        histories.setdefault(card_id, []).append((rating, at))
    return histories
