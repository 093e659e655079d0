"""Bulk writes of Browse, each a few set-wise statements inside the caller's transaction.

A bulk action (1) puts the rows it is about (a selection, or every row of a filter) in the temp
table `browse_target`, (2) opens a journal entry, (3) snapshots the rows that will change into
bulk_card / bulk_unit (INSERT ... SELECT), (4) changes exactly the snapshotted rows, writing the
card queue by the one queue rule in the same UPDATE (queue_after). Undo writes the snapshot back
(the cards of a trash or reject are not snapshotted: they follow their units back by the rule). The
service owns the transaction (core.services.browse.service), so kill -9 at any point leaves
all of it or none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.domain.browse import BulkAction, RowKey
from core.domain.review import Queue
from core.storage.browse.models import CARD_COLUMNS, UNIT_COLUMNS, ArticleTrash, BulkJournal
from core.storage.db import db, translated
from core.storage.review import cards as review_cards
from core.storage.review.models import NO_BUCKET, queue_after, queue_sql
from core.storage.search import index as search_index

JOURNAL_KEEP = 20  # bulk actions kept for undo (a 100k-card snapshot is ~10 MB)
_TARGET = "temp.browse_target"

# What each card action changes: (which target cards change, column -> SQL of its new value).
# The queue is written by the same UPDATE (queue_after): one write of each row and its index
# entries, not one for the flag and another for the queue.
_FORGOTTEN = {
    "state": "0", "step": "NULL", "stability": "NULL", "difficulty": "NULL", "due": ":now", "last_review": "NULL",
    "sbucket": f"{NO_BUCKET}", "t90": "NULL",
}  # fmt: skip
CARD_ACTIONS: dict[BulkAction, tuple[str, dict[str, str]]] = {
    BulkAction.SUSPEND: ("suspended = 0", {"suspended": "1"}),
    BulkAction.UNSUSPEND: ("suspended = 1", {"suspended": "0"}),
    BulkAction.BURY: (
        "active = 1 AND suspended = 0 AND NOT COALESCE(buried_until > :now, 0)",
        {"buried_until": ":until"},
    ),
    BulkAction.UNBURY: ("buried_until IS NOT NULL", {"buried_until": "NULL"}),
    BulkAction.FORGET: ("state != 0", _FORGOTTEN),
    BulkAction.SET_DUE: ("state != 0", {"due": ":due"}),
    BulkAction.ADVANCE: ("state = 2 AND due > :now", {"due": ":now"}),
    BulkAction.POSTPONE: ("state = 2", {"due": "MAX(due, :now) + :days * 86400"}),
}
# What each unit action changes: (which target units change, SET clause, whether cards follow the status).
UNIT_ACTIONS: dict[BulkAction, tuple[str, str, bool]] = {
    BulkAction.PIN: ("pinned = 0", "pinned = 1", False),
    BulkAction.UNPIN: ("pinned = 1", "pinned = 0", False),
    BulkAction.TRASH: (
        "status != 'trashed'",
        "status_before_trash = status, status = 'trashed', trashed_at = :now",
        True,
    ),
    BulkAction.RESTORE: (
        "status = 'trashed'",
        "status = COALESCE(status_before_trash, 'proposed'), status_before_trash = NULL, trashed_at = NULL",
        True,
    ),
    BulkAction.REJECT: ("status IN ('proposed', 'confirmed')", "status = 'rejected'", True),
    BulkAction.CONFIRM: ("status = 'rejected'", "status = 'confirmed'", True),
    BulkAction.TAG: (
        "NOT EXISTS (SELECT 1 FROM json_each(unit.tags_json) j WHERE lower(j.value) = :tag)",
        "tags_json = json_insert(COALESCE(tags_json, '[]'), '$[#]', :tag)",
        False,
    ),
    BulkAction.UNTAG: (
        "EXISTS (SELECT 1 FROM json_each(unit.tags_json) j WHERE lower(j.value) = :tag)",
        "tags_json = (SELECT COALESCE(json_group_array(j.value), '[]') FROM json_each(unit.tags_json) j "
        "WHERE lower(j.value) != :tag)",
        False,
    ),
    BulkAction.KEEP: ("anchor = 'changed'", "anchor = 'kept'", False),
    # decks (units.deck_id; NULL = the source article's own deck, so moving "to" it is a move back)
    BulkAction.MOVE_DECK: (
        "COALESCE(deck_id, article_id) != :deck",
        "deck_id = NULLIF(:deck, article_id)",
        False,
    ),
    BulkAction.SOURCE_DECK: ("deck_id IS NOT NULL", "deck_id = NULL", False),
}


# The card columns each action writes (the queue follows them): undo writes back only these, as
# every column written moves its entries in each index holding it (most of an undo's time).
_FOLLOWS = ("active",)
WRITES: dict[str, tuple[str, ...]] = {
    "suspend": ("suspended",),
    "unsuspend": ("suspended",),
    "bury": ("buried_until",),
    "unbury": ("buried_until",),
    "set_due": ("due",),
    "advance": ("due",),
    "postpone": ("due",),
    "apply_days": ("due",),
    "reschedule": ("due",),
    "pin": ("due",),
    "unpin": ("due",),
    "trash": _FOLLOWS,
    "restore": _FOLLOWS,
    "reject": _FOLLOWS,
    "confirm": _FOLLOWS,
    "delete_article": _FOLLOWS,
    "restore_article": _FOLLOWS,
    "tag": (),
    "untag": (),
    "keep": (),
    "move_deck": (),
    "source_deck": (),
}
# The unit columns each unit action writes (updated_at with every one), put back alone by undo
# for the same reason (a 100k-card trash's undo wrote all eight: 0.84 s CPU for its 50k units).
_TRASHED = ("status", "status_before_trash", "trashed_at", "updated_at")
UNIT_WRITES: dict[str, tuple[str, ...]] = {
    "pin": ("pinned", "updated_at"),
    "unpin": ("pinned", "updated_at"),
    "trash": _TRASHED,
    "restore": _TRASHED,
    "delete_article": _TRASHED,
    "restore_article": _TRASHED,
    "reject": ("status", "updated_at"),
    "confirm": ("status", "updated_at"),
    "tag": ("tags_json", "updated_at"),
    "untag": ("tags_json", "updated_at"),
    "keep": ("anchor", "updated_at"),
    "move_deck": ("deck_id", "updated_at"),
    "source_deck": ("deck_id", "updated_at"),
}


@dataclass(frozen=True, slots=True)
class Changed:
    cards: int
    units: int


def _exec(sql: str, params: dict[str, Any] | tuple[Any, ...] = ()) -> Any:
    return db.execute_sql(sql, params)


@translated
def clear_target() -> None:
    """An empty `browse_target` (a temp table: this connection's own, gone when it closes)."""
    _exec("CREATE TEMP TABLE IF NOT EXISTS browse_target (card_id INTEGER, unit_id INTEGER NOT NULL)")
    _exec(f"DELETE FROM {_TARGET}")


@translated
def target_rows(select_sql: str, params: dict[str, Any]) -> None:
    """Add `SELECT card id, unit id ...` rows (Browse's filter, core.storage.browse.where.target_sql)."""
    _exec(f"INSERT INTO {_TARGET} (card_id, unit_id) {select_sql}", params)


@translated
def target_keys(keys: Iterable[RowKey]) -> None:
    cards = [(k.card_id,) for k in keys if k.card_id is not None]
    units = [(k.unit_id,) for k in keys if k.card_id is None]
    con = db.connection()
    con.executemany(
        f"INSERT INTO {_TARGET} (card_id, unit_id) SELECT id, unit_id FROM card WHERE id = ?", cards
    )
    con.executemany(f"INSERT INTO {_TARGET} (card_id, unit_id) VALUES (NULL, ?)", units)


@translated
def target_article(article_id: int) -> None:
    _exec(
        f"INSERT INTO {_TARGET} (card_id, unit_id) SELECT NULL, id FROM unit WHERE article_id = ?",
        (article_id,),
    )


@translated
def target_trashed_since(article_id: int, since: int) -> None:
    """The article's units trashed at `since` or later (with its deletion, or after)."""
    _exec(
        f"INSERT INTO {_TARGET} (card_id, unit_id) SELECT NULL, id FROM unit "
        "WHERE article_id = ? AND status = 'trashed' AND trashed_at >= ?",
        (article_id, since),
    )


@translated
def open_journal(action: str, now: int, *, article_id: int | None = None) -> int:
    """A new journal entry (older ones beyond JOURNAL_KEEP are dropped with their snapshots)."""
    entry = BulkJournal.create(action=action, at=now, article_id=article_id)
    old = _exec(
        "SELECT id FROM bulk_journal WHERE undone = 0 ORDER BY id DESC LIMIT -1 OFFSET ?", (JOURNAL_KEEP,)
    )
    stale = [r[0] for r in old]
    if stale:
        marks = ", ".join("?" * len(stale))
        for table in ("bulk_card", "bulk_unit"):
            _exec(f"DELETE FROM {table} WHERE journal_id IN ({marks})", tuple(stale))
        _exec(f"DELETE FROM bulk_journal WHERE id IN ({marks})", tuple(stale))
    return int(entry.id)


def _snapshot_cards(journal: int, where: str, params: dict[str, Any]) -> int:
    cols = ", ".join(CARD_COLUMNS)
    cur = _exec(
        f"INSERT INTO bulk_card (journal_id, card_id, {cols}) SELECT :j, id, {cols} FROM card WHERE {where}",
        {**params, "j": journal},
    )
    return int(cur.rowcount or 0)


def _set_with_queue(new: dict[str, str], *, row: str = "") -> str:
    """A SET clause writing `new` (column -> SQL) and the queue that follows from it."""
    assigned = [f"{column} = {value}" for column, value in new.items() if column != "queue"]
    return ", ".join([*assigned, f"queue = ({queue_after(new, row=row)})"])


@translated
def change_cards(journal: int, action: BulkAction, now: int, **values: Any) -> Changed:
    """A card action on the target's cards (those it changes: a suspended card is not suspended again)."""
    which, new = CARD_ACTIONS[action]
    params = {"now": now, **values}
    n = _snapshot_cards(journal, f"id IN (SELECT card_id FROM {_TARGET}) AND {which}", params)
    if n:
        _exec(
            f"UPDATE card SET {_set_with_queue(new)} "
            "WHERE id IN (SELECT card_id FROM bulk_card WHERE journal_id = :j)",
            {**params, "j": journal},
        )
    _count(journal, n, 0)
    return Changed(n, 0)


@translated
def change_units(journal: int, action: BulkAction, now: int, **values: Any) -> Changed:
    """A unit action on the target's units; their cards follow a status change."""
    which, assign, cards_follow = UNIT_ACTIONS[action]
    params = {"now": now, "j": journal, **values}
    cols = ", ".join(UNIT_COLUMNS)
    cur = _exec(
        f"INSERT INTO bulk_unit (journal_id, unit_id, {cols}) SELECT :j, id, {cols} FROM unit "
        f"WHERE id IN (SELECT unit_id FROM {_TARGET}) AND {which}",
        params,
    )
    units = int(cur.rowcount or 0)
    _exec(
        f"UPDATE unit SET {assign}, updated_at = :now WHERE id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)",
        params,
    )
    cards = 0
    if units and cards_follow and action in _LEAVE_REVIEW:
        cards = _leave_review(journal, now)
    elif units and cards_follow:
        cards = _snapshot_cards(
            journal, "unit_id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)", params
        )
        if action == BulkAction.CONFIRM:  # a proposal has no cards yet
            for (unit_id,) in list(_exec("SELECT unit_id FROM bulk_unit WHERE journal_id = ?", (journal,))):
                review_cards.ensure_cards(unit_id, now)
        _follow_status(journal, now)
    if action in (BulkAction.TAG, BulkAction.UNTAG):  # tags are searched: the units' entries anew
        for (unit_id,) in list(_exec("SELECT unit_id FROM bulk_unit WHERE journal_id = ?", (journal,))):
            search_index.reindex_unit(unit_id)
    _count(journal, cards, units)
    return Changed(cards, units)


# Unit actions whose units all end not confirmed: every card of theirs ends inactive, and
# their undo needs no card snapshot (_leave_review).
_LEAVE_REVIEW = (BulkAction.TRASH, BulkAction.REJECT)


def _leave_review(journal: int, now: int) -> int:
    """Every card of the journal's units out of review, in one pass: no join to the units (all
    of them leave review), no second pass for ended burials (an inactive card's queue is
    INACTIVE whatever its burial), and no card snapshot: undo puts the units back and their
    cards follow them by the rule (_follow_status; a card is active exactly when its unit is
    confirmed). Returns how many cards the units have. A 100k-card trash: one card write of
    the three passes over its cards and the 100k-row snapshot (with its undo's delete) gone."""
    mine = "unit_id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)"
    params = {"j": journal, "now": now}
    _exec(f"UPDATE card SET {_set_with_queue({'active': '0'})} WHERE {mine} AND active != 0", params)
    return int(_exec(f"SELECT COUNT(*) FROM card WHERE {mine}", params).fetchone()[0])


def _follow_status(journal: int, now: int) -> None:
    """Cards of the journal's units active exactly when their unit is confirmed, their queue
    written with the flag; then queues anew where a burial ended (each written only where it
    changes)."""
    _exec(
        f"UPDATE card SET {_set_with_queue({'active': 'u.confirmed'}, row='card.')} "
        "FROM (SELECT id, status = 'confirmed' AS confirmed FROM unit "
        "WHERE id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)) u "
        "WHERE card.unit_id = u.id AND card.active != u.confirmed",
        {"j": journal, "now": now},
    )
    _exec(
        f"UPDATE card SET queue = ({queue_sql()}) WHERE unit_id IN "
        f"(SELECT unit_id FROM bulk_unit WHERE journal_id = :j) AND queue != ({queue_sql()})",
        {"j": journal, "now": now},
    )


@translated
def pin_due(journal: int, days_per_stability: float) -> None:
    """Re-time the journal's units' review cards for a new retention (pin / unpin): the interval
    in whole days is S x days_per_stability (scheduler.interval_for's rule), at least one."""
    _exec(
        "UPDATE card SET due = last_review + 86400 * MAX(1, CAST(ROUND(stability * :k) AS INTEGER)) "
        "WHERE state = 2 AND stability > 0 AND last_review IS NOT NULL "
        "AND unit_id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)",
        {"k": days_per_stability, "j": journal},
    )


@translated
def move_cards(journal: int, dues: dict[int, int], now: int) -> int:
    """Give cards new due times (schedule tools), snapshotted first; returns how many."""
    if not dues:
        return 0
    con = db.connection()
    cols = ", ".join(CARD_COLUMNS)
    con.executemany(
        f"INSERT INTO bulk_card (journal_id, card_id, {cols}) SELECT ?, id, {cols} FROM card WHERE id = ?",
        [(journal, card_id) for card_id in dues],
    )
    con.executemany("UPDATE card SET due = ? WHERE id = ?", [(due, card_id) for card_id, due in dues.items()])
    _count(journal, len(dues), 0)
    return len(dues)


@translated
def retime_reviews(journal: int, days_per_stability: float) -> int:
    """Every review card of a unit not pinned due S x days_per_stability days after its last
    review (a new desired retention), snapshotted first; returns how many."""
    which = (
        f"queue = {Queue.REVIEW:d} AND last_review IS NOT NULL AND stability > 0 "
        "AND unit_id IN (SELECT id FROM unit WHERE pinned = 0)"
    )
    n = _snapshot_cards(journal, which, {})
    _exec(
        "UPDATE card SET due = last_review + 86400 * MAX(1, CAST(ROUND(stability * :k) AS INTEGER)) "
        "WHERE id IN (SELECT card_id FROM bulk_card WHERE journal_id = :j)",
        {"k": days_per_stability, "j": journal},
    )
    _count(journal, n, 0)
    return n


@translated
def snapshot_unit_cards(journal: int) -> int:
    """Snapshot the cards of the journal's units (before pin_due changes them)."""
    return _snapshot_cards(journal, "unit_id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)", {})


@translated
def change_count(journal: int, cards: int) -> None:
    _count(journal, cards, 0)


def _count(journal: int, cards: int, units: int) -> None:
    _exec(
        "UPDATE bulk_journal SET cards = cards + ?, units = units + ? WHERE id = ?", (cards, units, journal)
    )


@translated
def drop_if_empty(journal: int) -> bool:
    """Forget a journal entry that changed nothing (nothing to undo). True when dropped."""
    row = _exec("SELECT cards, units, article_id FROM bulk_journal WHERE id = ?", (journal,)).fetchone()
    if row and not row[0] and not row[1] and row[2] is None:
        _exec("DELETE FROM bulk_journal WHERE id = ?", (journal,))
        return True
    return False


@translated
def last_journal() -> BulkJournal | None:
    return BulkJournal.select().where(BulkJournal.undone == False).order_by(BulkJournal.id.desc()).first()  # noqa: E712


@translated
def undo(entry: BulkJournal, now: int) -> None:
    """Put the journal's rows back as they were (inside the caller's transaction)."""
    j = {"j": entry.id, "now": now}
    unit_set = ", ".join(f"{c} = b.{c}" for c in UNIT_WRITES.get(str(entry.action), UNIT_COLUMNS))
    _exec(f"UPDATE unit SET {unit_set} FROM bulk_unit b WHERE b.journal_id = :j AND b.unit_id = unit.id", j)
    columns = WRITES.get(str(entry.action), CARD_COLUMNS)
    if columns:  # the queue by the rule from the restored flags (a burial that ended since is over)
        card_set = _set_with_queue({c: f"b.{c}" for c in columns}, row="card.")
        _exec(
            f"UPDATE card SET {card_set} FROM bulk_card b WHERE b.journal_id = :j AND b.card_id = card.id", j
        )
    _follow_status(entry.id, now)  # cards made by a confirm go back out of review with their unit
    if entry.action in (BulkAction.TAG, BulkAction.UNTAG):
        for (unit_id,) in list(_exec("SELECT unit_id FROM bulk_unit WHERE journal_id = ?", (entry.id,))):
            search_index.reindex_unit(unit_id)
    if entry.article_id is not None and entry.action == "delete_article":
        ArticleTrash.delete().where(ArticleTrash.article == entry.article_id).execute()
    if entry.article_id is not None and entry.action == "restore_article":
        ArticleTrash.insert(article=entry.article_id, trashed_at=now).on_conflict_ignore().execute()
    for table in ("bulk_card", "bulk_unit"):
        _exec(f"DELETE FROM {table} WHERE journal_id = ?", (entry.id,))
    _exec("UPDATE bulk_journal SET undone = 1 WHERE id = ?", (entry.id,))
