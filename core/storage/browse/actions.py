"""Bulk writes of Browse on cards, and undo, each a few set-wise statements inside the caller's
transaction.

A card action changes exactly the target's cards it snapshots (journal.py: the target and the
journal), writing the card queue by the one queue rule in the same UPDATE (set_with_queue); unit
actions are unit_actions.py's. Undo writes the snapshot back (the cards of a trash or reject are
not snapshotted: they follow their units back by the rule). The service owns the transaction
(core.services.browse.service), so kill -9 at any point leaves all of it or none.
"""

from __future__ import annotations

from typing import Any

from core.domain.browse import BulkAction, BulkUndo
from core.domain.review import Queue
from core.storage import journal as undo_journal
from core.storage.browse.journal import (
    TARGET,
    Changed,
    count,
    drop_if_empty,
    exec_sql,
    of_entry,
    put_setting_back,
    snapshot_cards,
)
from core.storage.browse.models import CARD_COLUMNS, UNIT_COLUMNS, ArticleTrash, BulkJournal
from core.storage.browse.unit_actions import UNIT_WRITES, follow_status, reindex
from core.storage.db import db
from core.storage.errors import translated
from core.storage.review.models import NO_BUCKET, set_with_queue

# What each card action changes: (which target cards change, column -> SQL of its new value).
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

# The card columns each action writes (the queue follows them): undo writes back only these, as
# every column written moves its entries in each index holding it (most of an undo's time).
_FOLLOWS = ("active",)
WRITES: dict[str, tuple[str, ...]] = {
    "suspend": ("suspended",),
    "unsuspend": ("suspended",),
    "bury": ("buried_until",),
    "unbury": ("buried_until",),
    # not reps, lapses, leech: their indexes' entries stay (a 100k undo: ~0.5 s CPU)
    "forget": tuple(_FORGOTTEN),
    "set_due": ("due",),
    "advance": ("due",),
    "postpone": ("due",),
    "apply_days": ("due",),
    "easy_days": ("due",),  # and the easy days setting (the entry's setting_*)
    "vacation": ("due",),  # and the vacations setting
    "reschedule": ("due",),
    "pin": ("due",),
    "unpin": ("due",),
    "trash": (),  # no card snapshot: the cards follow their units back by the rule (follow_status)
    "restore": _FOLLOWS,
    "reject": (),
    "confirm": _FOLLOWS,
    "delete_article": (),
    "restore_article": _FOLLOWS,
    "tag": (),
    "untag": (),
    "keep": (),
    "move_deck": (),
    "source_deck": (),
}


@translated
def change_cards(journal: int, action: BulkAction, now: int, **values: Any) -> Changed:
    """A card action on the target's cards (those it changes: a suspended card is not suspended again)."""
    which, new = CARD_ACTIONS[action]
    params = {"now": now, **values}
    n = snapshot_cards(journal, f"id IN (SELECT card_id FROM {TARGET}) AND {which}", params)
    if n:
        exec_sql(
            f"UPDATE card SET {set_with_queue(new)} "
            "WHERE id IN (SELECT card_id FROM bulk_card WHERE journal_id = :j)",
            {**params, "j": journal},
        )
    count(journal, n, 0)
    return Changed(n, 0)


@translated
def move_cards(journal: int, dues: dict[int, int], now: int) -> int:
    """Give cards new due times (schedule tools), snapshotted first; returns how many. The new
    times go into a temporary table in card id order, then one INSERT and one UPDATE join it (a
    statement per card was 2 x 100k statements: ~5 s CPU of a 100k-card easy-days move)."""
    if not dues:
        return 0
    con = db.connection()
    cols = ", ".join(CARD_COLUMNS)
    con.execute(
        "CREATE TEMP TABLE IF NOT EXISTS moved_due (card_id INTEGER PRIMARY KEY, due INTEGER NOT NULL)"
    )
    con.execute("DELETE FROM temp.moved_due")
    con.executemany("INSERT INTO temp.moved_due (card_id, due) VALUES (?, ?)", sorted(dues.items()))
    exec_sql(
        f"INSERT INTO bulk_card (journal_id, card_id, {cols}) SELECT ?, id, {cols} FROM card "
        "WHERE id IN (SELECT card_id FROM temp.moved_due)",
        (journal,),
    )
    exec_sql("UPDATE card SET due = m.due FROM temp.moved_due m WHERE m.card_id = card.id")
    con.execute("DELETE FROM temp.moved_due")
    count(journal, len(dues), 0)
    return len(dues)


@translated
def retime_reviews(journal: int, days_per_stability: float) -> int:
    """Every review card of a unit not pinned due S x days_per_stability days after its last
    review (a new desired retention), snapshotted first; returns how many."""
    which = (
        f"queue = {Queue.REVIEW:d} AND last_review IS NOT NULL AND stability > 0 "
        "AND unit_id NOT IN (SELECT id FROM unit WHERE pinned = 1)"  # the partial unit_pinned
    )
    n = snapshot_cards(journal, which, {})
    exec_sql(
        "UPDATE card SET due = last_review + 86400 * MAX(1, CAST(ROUND(stability * :k) AS INTEGER)) "
        "WHERE id IN (SELECT card_id FROM bulk_card WHERE journal_id = :j)",
        {"k": days_per_stability, "j": journal},
    )
    count(journal, n, 0)
    return n


def _card_signed(action: str) -> tuple[str, ...]:
    """The card columns whose values tell that a card is as the action left it: those it wrote,
    and reps (an answer since, whatever it wrote)."""
    written = WRITES.get(action, CARD_COLUMNS)
    return (*written, "reps") if "reps" not in written else written


def _signature(columns: tuple[str, ...], row: str) -> str:
    return f"json_array({', '.join(f'{row}{c}' for c in columns)})"


# Unit actions whose undo changes a unit's status, so its cards' place in review with it
_STATUS_ACTIONS = ("trash", "restore", "reject", "confirm", "delete_article", "restore_article")


@translated
def seal(journal: int, action: str) -> None:
    """Record what the action left in each row it snapshotted (the columns it wrote) and the
    newest answer before it, at the end of the action, in its transaction: an undo takes back
    this action's change only, never a change made since (core.storage.browse.actions.undo)."""
    exec_sql(
        "UPDATE bulk_journal SET log_mark = (SELECT COALESCE(MAX(id), 0) FROM review_log) WHERE id = ?",
        (journal,),
    )
    if WRITES.get(action, CARD_COLUMNS):
        exec_sql(
            f"UPDATE bulk_card SET after = (SELECT {_signature(_card_signed(action), 'c.')} FROM card c "
            "WHERE c.id = bulk_card.card_id) WHERE journal_id = ?",
            (journal,),
        )
    unit_cols = UNIT_WRITES.get(action, UNIT_COLUMNS)
    exec_sql(
        f"UPDATE bulk_unit SET after = (SELECT {_signature(unit_cols, 'u.')} FROM unit u "
        "WHERE u.id = bulk_unit.unit_id) WHERE journal_id = ?",
        (journal,),
    )


@translated
def close_journal(journal: int, action: str) -> int:
    """The end of a journaled action: sealed (seal), or dropped when it changed nothing; returns
    the entry's id, or 0 when there is nothing to undo."""
    if drop_if_empty(journal):
        return 0
    seal(journal, action)
    return journal


@translated
def put_back(entry_id: int, now: int) -> BulkUndo | None:
    """Undo the bulk action of journal entry `entry_id` (`undo`), inside the caller's write
    transaction (core/services/undo.py); the entry is done with. None when its details are gone."""
    undo_journal.mark_undone(entry_id)
    entry = of_entry(entry_id)
    return None if entry is None else undo(entry, now)


@translated
def undo(entry: BulkJournal, now: int) -> BulkUndo:
    """Put back the journal's rows that are still as the action left them (inside the caller's
    transaction); rows changed since (answered, edited, moved by another tool) stay as they are.
    Entries written before schema 9 have no record of what they left and undo every row."""
    action = str(entry.action)
    j = {"j": entry.id, "now": now, "mark": entry.log_mark}
    unit_cols = UNIT_WRITES.get(action, UNIT_COLUMNS)
    unit_same = f"(b.after IS NULL OR b.after = {_signature(unit_cols, 'unit.')})"
    if action in _STATUS_ACTIONS:  # a unit whose cards were answered since keeps its status
        unit_same += (
            " AND (:mark IS NULL OR NOT EXISTS (SELECT 1 FROM card c JOIN review_log r ON r.card_id = c.id "
            "WHERE c.unit_id = unit.id AND r.id > :mark))"
        )
    unit_set = ", ".join(f"{c} = b.{c}" for c in unit_cols)
    units = exec_sql(
        f"UPDATE unit SET {unit_set} FROM bulk_unit b WHERE b.journal_id = :j AND b.unit_id = unit.id "
        f"AND {unit_same}",
        j,
    ).rowcount
    columns = WRITES.get(action, CARD_COLUMNS)
    cards = 0
    if columns:  # the queue by the rule from the restored flags (a burial that ended since is over)
        card_set = set_with_queue({c: f"b.{c}" for c in columns}, row="card.")
        card_same = f"(b.after IS NULL OR b.after = {_signature(_card_signed(action), 'card.')})"
        cards = exec_sql(
            f"UPDATE card SET {card_set} FROM bulk_card b WHERE b.journal_id = :j AND b.card_id = card.id "
            f"AND {card_same}",
            j,
        ).rowcount
    # the snapshotted rows still there (a purge since takes its units and cards for good)
    snap_cards = exec_sql(
        "SELECT COUNT(*) FROM bulk_card b JOIN card c ON c.id = b.card_id WHERE b.journal_id = ?", (entry.id,)
    ).fetchone()[0]
    snap_units = exec_sql(
        "SELECT COUNT(*) FROM bulk_unit b JOIN unit u ON u.id = b.unit_id WHERE b.journal_id = ?", (entry.id,)
    ).fetchone()[0]
    follow_status(entry.id, now)  # cards made by a confirm go back out of review with their unit
    setting_left = "" if put_setting_back(entry) else str(entry.setting_key)
    if entry.action in (BulkAction.TAG, BulkAction.UNTAG):
        reindex(entry.id)
    if entry.article_id is not None and entry.action == "delete_article":
        ArticleTrash.delete().where(ArticleTrash.article == entry.article_id).execute()
    if entry.article_id is not None and entry.action == "restore_article":
        ArticleTrash.insert(article=entry.article_id, trashed_at=now).on_conflict_ignore().execute()
    for table in ("bulk_card", "bulk_unit"):
        exec_sql(f"DELETE FROM {table} WHERE journal_id = ?", (entry.id,))
    exec_sql("UPDATE bulk_journal SET undone = 1 WHERE id = ?", (entry.id,))
    cards, units = int(cards or 0), int(units or 0)
    left = (max(0, int(snap_cards) - cards), max(0, int(snap_units) - units))
    return BulkUndo(str(entry.action), cards, units, *left, setting_left)
