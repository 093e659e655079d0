"""Cards, review logs and the undo journal: card reads and one-transaction writes.

Every write here is one IMMEDIATE transaction that also journals the rows it changes (undo).
Hot paths use plain SQL by primary key or index; nothing here scans all cards. The session's
queries (what is due, in which order) live in review_queue.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from core.storage.db import db, write_transaction
from core.storage.models import Unit
from core.storage.review import queue as review_queue
from core.storage.review.models import (
    NO_BUCKET,
    Q_BURIED,
    Q_INACTIVE,
    Q_NEW,
    Q_REVIEW,
    ReviewLog,
    UndoEntry,
    queue_for,
    stability_bucket,
    t90,
)

# The queue a card belongs in, from its state and flags (SQL twin of review_models.queue_for).
QUEUE_SQL = (
    "CASE WHEN active = 0 THEN -3 WHEN suspended = 1 THEN -1 "
    "WHEN buried_until IS NOT NULL AND buried_until > :now THEN -2 "
    "WHEN state = 0 THEN 0 WHEN state = 2 THEN 2 ELSE 1 END"
)
_COLS = (
    "id, unit_id, question_id, state, step, stability, difficulty, due, last_review, reps, lapses, "
    "queue, active, suspended, leech, buried_until, created_at"
)
UNDO_KEEP = 200  # journal entries kept (older ones are pruned)


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


_FIELDS = tuple(f.name for f in fields(CardRow))


def row_dict(r: CardRow) -> dict[str, Any]:
    """A card row as a dict (dataclasses.asdict deep-copies and is ~20x slower)."""
    return {name: getattr(r, name) for name in _FIELDS}


def row_queue(r: CardRow, now: int) -> int:
    buried = r.buried_until is not None and r.buried_until > now
    return queue_for(r.state, active=r.active, suspended=r.suspended, buried=buried)


def _row(t: Sequence[Any]) -> CardRow:
    return CardRow(
        t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11],
        bool(t[12]), bool(t[13]), bool(t[14]), t[15], t[16],
    )  # fmt: skip


def _exec(sql: str, params: dict[str, Any] | Sequence[Any] = ()) -> Any:
    return db.execute_sql(sql, params)


# --- kept in step with curation (called inside curation transactions) ---------------------


def ensure_cards(unit_id: int, now: int) -> int:
    """Create a new card for every question of a confirmed unit that has none; return how many.

    Called inside the caller's transaction (accept, auto-accept, edit of a confirmed unit).
    """
    unit = Unit.get_or_none(Unit.id == unit_id)
    if unit is None:
        return 0
    active = 1 if unit.status == "confirmed" else 0
    missing = _exec(
        "SELECT q.id FROM question q LEFT JOIN card c ON c.question_id = q.id "
        "WHERE q.unit_id = ? AND c.id IS NULL ORDER BY q.position",
        (unit_id,),
    ).fetchall()
    for (qid,) in missing:
        _exec(
            "INSERT INTO card (question_id, unit_id, state, due, reps, lapses, queue, active, suspended, leech, "
            "created_at, sbucket) VALUES (?, ?, 0, ?, 0, 0, ?, ?, 0, 0, ?, ?)",
            (qid, unit_id, now, Q_NEW if active else Q_INACTIVE, active, now, NO_BUCKET),
        )
    return len(missing)


def on_unit_status(unit_id: int, status: str, now: int) -> None:
    """Keep cards in step with the unit: rejected/trashed units' cards leave the queue,
    a restored or re-confirmed unit's cards come back. Inside the caller's transaction."""
    if status == "confirmed":
        ensure_cards(unit_id, now)
    active = 1 if status == "confirmed" else 0
    # SET expressions see the row before the update, so `active` is passed, not read.
    queue = QUEUE_SQL.replace("active = 0", ":a = 0")
    _exec(
        f"UPDATE card SET active = :a, queue = ({queue}) WHERE unit_id = :u",
        {"a": active, "u": unit_id, "now": now},
    )


# --- reads -------------------------------------------------------------------------------


def get_card(card_id: int) -> CardRow | None:
    t = _exec(f"SELECT {_COLS} FROM card WHERE id = ?", (card_id,)).fetchone()
    return _row(t) if t else None


def cards_of_unit(unit_id: int) -> list[CardRow]:
    return [_row(t) for t in _exec(f"SELECT {_COLS} FROM card WHERE unit_id = ? ORDER BY id", (unit_id,))]


def cards_where(queue: int, limit: int = 1000, *, leech_only: bool = False) -> list[CardRow]:
    extra = " AND leech = 1" if leech_only else ""
    sql = f"SELECT {_COLS} FROM card WHERE queue = ?{extra} ORDER BY id LIMIT ?"
    return [_row(t) for t in _exec(sql, (queue, limit))]


def card_content(card_id: int) -> dict[str, Any] | None:
    """Question, answer, kind and the unit/article it comes from."""
    t = _exec(
        "SELECT q.question, q.answer, q.kind, u.id, u.content, u.pinned, u.memory_type, a.title, a.id "
        "FROM card c JOIN question q ON q.id = c.question_id JOIN unit u ON u.id = c.unit_id "
        "JOIN article a ON a.id = u.article_id WHERE c.id = ?",
        (card_id,),
    ).fetchone()
    if t is None:
        return None
    keys = (
        "question",
        "answer",
        "kind",
        "unit_id",
        "unit_content",
        "pinned",
        "memory_type",
        "article_title",
        "article_id",
    )
    return dict(zip(keys, t, strict=True))


def unit_pinned(unit_id: int) -> bool:
    t = _exec("SELECT pinned FROM unit WHERE id = ?", (unit_id,)).fetchone()
    return bool(t and t[0])


def review_logs() -> Iterable[tuple[int, int, int]]:
    """(card id, rating, reviewed_at) of every review, by card then time (the optimizer's input)."""
    return _exec("SELECT card_id, rating, reviewed_at FROM review_log ORDER BY card_id, reviewed_at, id")


def log_count(card_id: int) -> int:
    return int(_exec("SELECT COUNT(*) FROM review_log WHERE card_id = ?", (card_id,)).fetchone()[0])


# --- writes (each one IMMEDIATE transaction, with its undo snapshot) -----------------------


def _snapshot(rows: Iterable[CardRow]) -> str:
    return json.dumps([row_dict(r) for r in rows])


def _journal(action: str, before: Sequence[CardRow], now: int, **extra: Any) -> int:
    cols = {"action": action, "cards_json": _snapshot(before), "at": now, **extra}
    names = ", ".join(cols)
    cur = _exec(
        f"INSERT INTO undo_entry ({names}) VALUES ({', '.join('?' * len(cols))})", list(cols.values())
    )
    entry_id = int(cur.lastrowid)
    if entry_id % 50 == 0:
        _exec("DELETE FROM undo_entry WHERE id <= ?", (entry_id - UNDO_KEEP,))
    return entry_id


def _write_card(r: CardRow, now: int) -> None:
    _exec(
        "UPDATE card SET state = :state, step = :step, stability = :stability, difficulty = :difficulty, "
        "due = :due, last_review = :last_review, reps = :reps, lapses = :lapses, active = :active, "
        "suspended = :suspended, leech = :leech, buried_until = :buried_until, queue = :queue, "
        "sbucket = :sbucket, t90 = :t90 WHERE id = :id",
        {
            **row_dict(r),
            "queue": row_queue(r, now),
            "sbucket": stability_bucket(r.stability),
            "t90": t90(r.last_review, r.stability),
        },
    )


Decide = Callable[[CardRow, Callable[[int, int, int], list[int]]], tuple[CardRow, LogRow, dict[str, Any]]]


def answer(
    card_id: int, decide: Decide, *, now: int, bury_until: int
) -> tuple[CardRow, int, dict[str, Any]] | None:
    """Rate a card in ONE IMMEDIATE transaction: card state, review log, sibling burying, undo entry.

    `decide(row, due_load)` gets the card as stored now and returns (new row, log, extra info).
    Returns (new row, review log id, extra) or None if the card does not exist.
    """
    with write_transaction():
        row = get_card(card_id)
        if row is None:
            return None
        new, log, info = decide(row, review_queue.due_load)
        siblings = [
            _row(t)
            for t in _exec(
                f"SELECT {_COLS} FROM card WHERE unit_id = ? AND id != ? AND queue IN (?, ?)",
                (row.unit_id, row.id, Q_NEW, Q_REVIEW),
            )
        ]
        _write_card(new, now)
        cur = _exec(
            "INSERT INTO review_log (card_id, rating, reviewed_at, wall_at, state_before, elapsed_days, "
            "scheduled_days, stability, difficulty, duration_ms, clock_skew_s) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, log.rating, log.reviewed_at, log.wall_at, log.state_before, log.elapsed_days,
             log.scheduled_days, new.stability, new.difficulty, log.duration_ms, log.clock_skew_s),
        )  # fmt: skip
        log_id = int(cur.lastrowid)
        for s in siblings:
            _write_card(replace(s, buried_until=bury_until), now)
        _journal("rate", [row, *siblings], now, review_log_id=log_id, card_id=row.id, unit_id=row.unit_id)
        return new, log_id, {**info, "buried": len(siblings)}


def update_cards(action: str, new_rows: Sequence[CardRow], now: int, *, card_id: int | None = None) -> int:
    """Write changed card rows (suspend, bury, postpone, ...) with one undo entry. Returns how many."""
    if not new_rows:
        return 0
    with write_transaction():
        before = [b for b in (get_card(r.id) for r in new_rows) if b is not None]
        for r in new_rows:
            _write_card(r, now)
        _journal(action, before, now, card_id=card_id)
    return len(new_rows)


def set_pinned(unit_id: int, pinned: bool, new_rows: Sequence[CardRow], now: int) -> bool:
    """Pin/unpin a unit and re-time its cards for the new retention target, undoable."""
    with write_transaction():
        unit = Unit.get_or_none(Unit.id == unit_id)
        if unit is None:
            return False
        before = [b for b in (get_card(r.id) for r in new_rows) if b is not None]
        _journal("pin" if pinned else "unpin", before, now, unit_id=unit_id, pinned_before=bool(unit.pinned))
        Unit.update(pinned=pinned, updated_at=now).where(Unit.id == unit_id).execute()
        for r in new_rows:
            _write_card(r, now)
    return True


def undo_last(now: int) -> tuple[str, int | None] | None:
    """Undo the latest review action (several steps: call again). Returns (action, card id) or None."""
    with write_transaction():
        entry = UndoEntry.select().order_by(UndoEntry.id.desc()).first()
        if entry is None:
            return None
        for data in json.loads(entry.cards_json):
            current = get_card(int(data["id"]))
            if current is None:
                continue  # purged with its unit since
            # `active` follows the unit's status (curation's business), not the review journal
            _write_card(replace(CardRow(**data), active=current.active), now)
        if entry.review_log_id is not None:
            ReviewLog.delete().where(ReviewLog.id == entry.review_log_id).execute()
        if entry.pinned_before is not None and entry.unit_id is not None:
            Unit.update(pinned=entry.pinned_before).where(Unit.id == entry.unit_id).execute()
        action, card_id = str(entry.action), entry.card_id
        entry.delete_instance()
    return action, card_id


def undo_depth() -> int:
    return int(UndoEntry.select().count())


def unbury(now: int) -> int:
    """Bring back cards whose burial ended. Returns how many."""
    if not _exec(
        "SELECT 1 FROM card WHERE queue = ? AND buried_until <= ? LIMIT 1", (Q_BURIED, now)
    ).fetchone():
        return 0
    with write_transaction():
        cur = _exec(
            "UPDATE card SET buried_until = NULL, queue = CASE state WHEN 0 THEN 0 WHEN 2 THEN 2 ELSE 1 END "
            "WHERE queue = :q AND buried_until <= :now",
            {"q": Q_BURIED, "now": now},
        )
    return int(cur.rowcount or 0)


def get_setting(key: str) -> Any:
    t = _exec("SELECT value_json FROM setting WHERE key = ?", (key,)).fetchone()
    return json.loads(t[0]) if t else None


def put_setting(key: str, value: Any) -> None:
    with write_transaction():
        _exec("INSERT OR REPLACE INTO setting (key, value_json) VALUES (?, ?)", (key, json.dumps(value)))


def reschedule_all(compute: Callable[[CardRow, list[tuple[int, int]]], CardRow | None], now: int) -> int:
    """Recompute every reviewed card from its log (after new parameters). One transaction."""
    changed = 0
    with write_transaction():
        logs: dict[int, list[tuple[int, int]]] = {}
        for cid, rating, at in review_logs():
            logs.setdefault(cid, []).append((rating, at))
        for cid, entries in logs.items():
            row = get_card(cid)
            if row is None:
                continue
            new = compute(row, entries)
            if new is not None:
                _write_card(new, now)
                changed += 1
    return changed
