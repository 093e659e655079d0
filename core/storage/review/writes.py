"""The review actions on cards, each journalled for undo: an answer (with the burial of its
unit's other cards), suspend / bury / postpone and other card rewrites, pin / unpin, and the
put-back of one of them; also the rewrite of every card for new FSRS parameters (not undoable).

Every write is one IMMEDIATE transaction (or the caller's, where said) that also journals the
rows it changes: an entry in the one journal (core/storage/journal.py) and its UndoEntry, the
card rows as they were (JSON), which the put-back writes back. A card row is written whole (the domain Card's fields, and the columns derived from them:
the queue by the one rule, the session index's stability bucket and t90).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.domain.card import Card
from core.domain.review import UndoResult
from core.domain.undo import Kind, Scope
from core.storage import journal
from core.storage.converters import card_dict
from core.storage.db import db, write_transaction
from core.storage.errors import translated
from core.storage.models import Unit
from core.storage.review import cards
from core.storage.review.cards import LogRow
from core.storage.review.models import CHANGING, INDEX_KEYS, ReviewLog, UndoEntry

UNDO_KEEP = 200  # journal entries kept (older ones are pruned)

# Every column that changes, from cards.stored_columns (the queue by the rule, the index keys).
_UPDATE = (
    f"UPDATE card SET {', '.join(f'{name} = :{name}' for name in (*CHANGING, *INDEX_KEYS))} WHERE id = :id"
)


def _exec(sql: str, params: dict[str, Any] | Sequence[Any] = ()) -> Any:
    return db.execute_sql(sql, params)


def _require_transaction(name: str) -> None:
    if not db.in_transaction():  # a programming error: each statement would commit on its own
        raise RuntimeError(f"{name} writes inside the caller's write_transaction()")


def _snapshot(rows: Iterable[Card]) -> str:
    return json.dumps([card_dict(r) for r in rows])


def _journal(action: str, before: Sequence[Card], now: int, after: Sequence[Card], **extra: Any) -> int:
    """The action's entry in the one journal, and its details: the rows before and after."""
    entry_id = journal.append(Kind.REVIEW, Scope.REVIEW, action, now)
    cols = {
        "action": action, "cards_json": _snapshot(before), "after_json": _snapshot(after), "at": now,
        "journal_id": entry_id, **extra,
    }  # fmt: skip
    names = ", ".join(cols)
    cur = _exec(
        f"INSERT INTO undo_entry ({names}) VALUES ({', '.join('?' * len(cols))})", list(cols.values())
    )
    detail_id = int(cur.lastrowid)
    if detail_id % 50 == 0:  # the oldest beyond UNDO_KEEP go, their journal entries with them
        _exec(
            "DELETE FROM journal WHERE id IN (SELECT journal_id FROM undo_entry WHERE id <= ?)",
            (detail_id - UNDO_KEEP,),
        )
        _exec("DELETE FROM undo_entry WHERE id <= ?", (detail_id - UNDO_KEEP,))
    return entry_id


def _write_card(r: Card, now: int) -> None:
    _exec(_UPDATE, cards.stored_columns(r, now))


@dataclass(frozen=True, slots=True)
class SavedAnswer:
    review_log_id: int
    buried: int  # the unit's other new/review cards, buried for the rest of the day


@translated
def save_answer(before: Card, after: Card, log: LogRow, *, now: int, bury_until: int) -> SavedAnswer:
    """Save one answer: the card's new row, its review log, the burial of the unit's other
    new and review cards until `bury_until`, and the undo entry. Inside the caller's
    write_transaction, the one that read `before`: the answer is all written or not at all."""
    _require_transaction("save_answer")
    siblings = cards.unit_siblings(before)
    _write_card(after, now)
    cur = _exec(
        "INSERT INTO review_log (card_id, rating, reviewed_at, wall_at, state_before, elapsed_days, "
        "scheduled_days, stability, difficulty, duration_ms, clock_skew_s) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (before.id, log.rating, log.reviewed_at, log.wall_at, log.state_before, log.elapsed_days,
         log.scheduled_days, after.stability, after.difficulty, log.duration_ms, log.clock_skew_s),
    )  # fmt: skip
    log_id = int(cur.lastrowid)
    buried = [replace(s, buried_until=bury_until) for s in siblings]
    for s in buried:
        _write_card(s, now)
    _journal(
        "rate", [before, *siblings], now, [after, *buried],
        review_log_id=log_id, card_id=before.id, unit_id=before.unit_id,
    )  # fmt: skip
    return SavedAnswer(log_id, len(siblings))


@translated
def update_cards(action: str, new_rows: Sequence[Card], now: int, *, card_id: int | None = None) -> int:
    """Write changed card rows (suspend, bury, postpone, ...) with one undo entry. Returns how many."""
    if not new_rows:
        return 0
    with write_transaction():
        before = [b for b in (cards.get_card(r.id) for r in new_rows) if b is not None]
        for r in new_rows:
            _write_card(r, now)
        _journal(action, before, now, new_rows, card_id=card_id)
    return len(new_rows)


@translated
def set_pinned(unit_id: int, pinned: bool, new_rows: Sequence[Card], now: int) -> bool:
    """Pin/unpin a unit and re-time its cards for the new retention target, undoable."""
    with write_transaction():
        unit = Unit.get_or_none(Unit.id == unit_id)
        if unit is None:
            return False
        before = [b for b in (cards.get_card(r.id) for r in new_rows) if b is not None]
        _journal(
            "pin" if pinned else "unpin",
            before,
            now,
            new_rows,
            unit_id=unit_id,
            pinned_before=bool(unit.pinned),
        )
        Unit.update(pinned=pinned, updated_at=now).where(Unit.id == unit_id).execute()
        for r in new_rows:
            _write_card(r, now)
    return True


# What tells that a card is as an action left it: every field but those that follow the unit's
# status (`active`, curation's business) or are worked out from the others (`queue`).
_NOT_SIGNED = frozenset({"active", "queue"})


def _as_left(current: Card, after: dict[str, Any] | None) -> bool:
    if after is None:  # an entry from before schema 9: nothing recorded, undone as it was
        return True
    now = card_dict(current)
    return all(now[k] == v for k, v in after.items() if k not in _NOT_SIGNED)


@translated
def put_back(entry_id: int, now: int) -> UndoResult | None:
    """Undo the review action of journal entry `entry_id`, taking back its own change only,
    inside the caller's write transaction (core/services/undo.py). The entry and its details
    go; None when it has no details (nothing to put back). `changed_since`: the card the action
    was about was changed after it (a bulk action, a schedule tool, an edit), so the action stays
    as it was (an undo never takes back a later change); `left`: other cards of the entry (a
    rating's buried siblings) changed since and left as they are."""
    _require_transaction("put_back")
    entry = UndoEntry.get_or_none(UndoEntry.journal_id == entry_id)
    journal.forget([entry_id])
    if entry is None:
        return None
    action, card_id = str(entry.action), entry.card_id
    afters = {int(a["id"]): a for a in json.loads(entry.after_json or "[]")}
    pairs = []
    for data in json.loads(entry.cards_json):
        current = cards.get_card(int(data["id"]))
        if current is not None:  # else purged with its unit since
            pairs.append((data, current, _as_left(current, afters.get(int(data["id"])) if afters else None)))
    entry.delete_instance()
    if any(current.id == card_id and not same for _, current, same in pairs):
        return UndoResult(action, card_id, changed_since=True)
    for data, current, same in pairs:
        if same:  # `active` follows the unit's status (curation's business), not this journal
            _write_card(replace(Card(**data), active=current.active), now)
    if entry.review_log_id is not None:
        ReviewLog.delete().where(ReviewLog.id == entry.review_log_id).execute()
    if entry.pinned_before is not None and entry.unit_id is not None:
        Unit.update(pinned=entry.pinned_before).where(Unit.id == entry.unit_id).execute()
    return UndoResult(action, card_id, left=sum(1 for _, _, same in pairs if not same))


@translated
def rewrite_cards(rows: Sequence[Card], now: int) -> int:
    """Write recomputed card rows (new FSRS parameters) without an undo entry. Inside the
    caller's write_transaction."""
    _require_transaction("rewrite_cards")
    for r in rows:
        _write_card(r, now)
    return len(rows)
