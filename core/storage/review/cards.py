"""Card rows: reads, the cards kept in step with their unit (inside curation's transactions),
the end of burials, and the review settings.

The review actions that journal what they change for undo (answer, suspend, pin, undo, ...)
are writes.py's. Hot paths use plain SQL by primary key or index; nothing here scans all
cards. The session's queries (what is due, in which order) live in queue.py.

A card row is a `CardRow`: the columns read, written and journalled are its fields (in the
order they are declared), so a new column is a field here and one in models.Card.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

from core.domain import NO_LOCATOR, Locator
from core.domain.review import Queue, State
from core.storage.converters import locator
from core.storage.db import db, write_transaction
from core.storage.errors import translated
from core.storage.review.models import queue_for, queue_sql, stability_bucket, t90


@dataclass(frozen=True, slots=True)
class CardRow:
    id: int
    unit_id: int
    question_id: int
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: int
    last_review: int | None
    reps: int
    lapses: int
    queue: int
    active: bool
    suspended: bool
    leech: bool
    buried_until: int | None
    created_at: int

    @classmethod
    def new(cls, question_id: int, unit_id: int, now: int, *, active: bool) -> CardRow:
        """A card never answered: new cards are shown in the order they were made (`due`)."""
        return cls(
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


@dataclass(frozen=True, slots=True)
class CardContent:
    """What a card asks and where it comes from."""

    question: str
    answer: str
    kind: str
    unit_id: int
    unit_content: str
    pinned: bool
    memory_type: str
    article_title: str
    article_id: int
    locator: Locator = NO_LOCATOR  # where the unit's first quote sits (its context line)


_FIELDS = tuple(f.name for f in fields(CardRow))
_FLAGS = tuple(i for i, f in enumerate(fields(CardRow)) if f.type == "bool")  # stored as 0/1
_SELECT = f"SELECT {', '.join(_FIELDS)} FROM card"


@translated
def row_dict(r: CardRow) -> dict[str, Any]:
    """A card row as a dict (dataclasses.asdict deep-copies and is ~20x slower)."""
    return {name: getattr(r, name) for name in _FIELDS}


@translated
def row_queue(r: CardRow, now: int) -> Queue:
    buried = r.buried_until is not None and r.buried_until > now
    return queue_for(r.state, active=r.active, suspended=r.suspended, buried=buried)


def _card(values: Sequence[Any]) -> CardRow:
    """A row read with `_SELECT` (its columns are CardRow's fields, in order)."""
    row = list(values)
    for i in _FLAGS:
        row[i] = bool(row[i])
    return CardRow(*row)


@translated
def stored_columns(r: CardRow, now: int) -> dict[str, Any]:
    """The row's columns as stored: its fields, and the columns derived from them."""
    return {
        **row_dict(r),
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
    columns = stored_columns(CardRow.new(0, unit_id, now, active=active), now)
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
def get_card(card_id: int) -> CardRow | None:
    t = _exec(f"{_SELECT} WHERE id = ?", (card_id,)).fetchone()
    return _card(t) if t else None


@translated
def cards_of_unit(unit_id: int) -> list[CardRow]:
    return [_card(t) for t in _exec(f"{_SELECT} WHERE unit_id = ? ORDER BY id", (unit_id,))]


@translated
def cards_where(queue: Queue, limit: int = 1000, *, leech_only: bool = False) -> list[CardRow]:
    extra = " AND leech = 1" if leech_only else ""
    sql = f"{_SELECT} WHERE queue = ?{extra} ORDER BY id LIMIT ?"
    return [_card(t) for t in _exec(sql, (int(queue), limit))]


@translated
def unit_siblings(card: CardRow) -> list[CardRow]:
    """The other new and review cards of the card's unit (an answer buries them)."""
    return [
        _card(t)
        for t in _exec(
            f"{_SELECT} WHERE unit_id = ? AND id != ? AND queue IN (?, ?)",
            (card.unit_id, card.id, int(Queue.NEW), int(Queue.REVIEW)),
        )
    ]


@translated
def card_content(card_id: int) -> CardContent | None:
    """Question, answer, kind and the unit/article it comes from, with the place of the unit's
    first quote (the paragraph's locator: the card's context line)."""
    t = _exec(
        "SELECT q.question, q.answer, q.kind, u.id, u.content, u.pinned, u.memory_type, a.title, a.id, "
        "(SELECT p.locator_json FROM evidence e JOIN paragraph p ON p.article_id = u.article_id "
        "AND p.paragraph_id = e.paragraph_id WHERE e.unit_id = u.id ORDER BY e.position LIMIT 1) "
        "FROM card c JOIN question q ON q.id = c.question_id JOIN unit u ON u.id = c.unit_id "
        "JOIN article a ON a.id = u.article_id WHERE c.id = ?",
        (card_id,),
    ).fetchone()
    if t is None:
        return None
    question, answer, kind, unit_id, unit_content, pinned, memory_type, title, article_id, where = t
    return CardContent(
        question,
        answer,
        kind,
        unit_id,
        unit_content,
        bool(pinned),
        memory_type,
        title,
        article_id,
        locator(where),
    )


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
