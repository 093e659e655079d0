"""Bulk writes of Browse on units (pin, trash, restore, reject, confirm, tag, keep, decks), each a
few set-wise statements inside the caller's transaction; the cards of a unit whose status changes
follow it by the one queue rule (active exactly when the unit is confirmed). The card actions and
undo are core.storage.browse.actions'; the target and the journal, journal.py's.
"""

from __future__ import annotations

from typing import Any

from core.domain.browse import BulkAction
from core.storage.browse.journal import TARGET, Changed, count, exec_sql, snapshot_cards
from core.storage.browse.models import UNIT_COLUMNS
from core.storage.errors import translated
from core.storage.review import cards as review_cards
from core.storage.review.models import queue_after, set_with_queue
from core.storage.search import index as search_index
from core.text import stored

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
_MINE = "unit_id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)"  # cards of the journal's units


@translated
def change_units(journal: int, action: BulkAction, now: int, **values: Any) -> Changed:
    """A unit action on the target's units; their cards follow a status change."""
    which, assign, cards_follow = UNIT_ACTIONS[action]
    params = {"now": now, "j": journal, **values}
    if "tag" in params:  # written by a raw statement: the store gate by hand (core/storage/fields.py)
        params["tag"] = stored(str(params["tag"]), single_line=True)
    cols = ", ".join(UNIT_COLUMNS)
    cur = exec_sql(
        f"INSERT INTO bulk_unit (journal_id, unit_id, {cols}) SELECT :j, id, {cols} FROM unit "
        f"WHERE id IN (SELECT unit_id FROM {TARGET}) AND {which}",
        params,
    )
    units = int(cur.rowcount or 0)
    exec_sql(
        f"UPDATE unit SET {assign}, updated_at = :now WHERE id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)",
        params,
    )
    cards = 0
    if units and cards_follow and action in _LEAVE_REVIEW:
        cards = _leave_review(journal, now)
    elif units and cards_follow:
        cards = snapshot_cards(journal, _MINE, params)
        if action == BulkAction.CONFIRM:  # a proposal has no cards yet
            for unit_id in journal_units(journal):
                review_cards.ensure_cards(unit_id, now)
        follow_status(journal, now)
    if action in (BulkAction.TAG, BulkAction.UNTAG):  # tags are searched: the units' entries anew
        reindex(journal)
    count(journal, cards, units)
    return Changed(cards, units)


@translated
def journal_units(journal: int) -> list[int]:
    return [int(r[0]) for r in exec_sql("SELECT unit_id FROM bulk_unit WHERE journal_id = ?", (journal,))]


@translated
def reindex(journal: int) -> None:
    """The search index's entries of the journal's units anew (their tags changed)."""
    for unit_id in journal_units(journal):
        search_index.reindex_unit(unit_id)


# Unit actions whose units all end not confirmed: every card of theirs ends inactive, and
# their undo needs no card snapshot (_leave_review).
_LEAVE_REVIEW = (BulkAction.TRASH, BulkAction.REJECT)


def _leave_review(journal: int, now: int) -> int:
    """Every card of the journal's units out of review, in one pass: no join to the units (all
    of them leave review), no second pass for ended burials (an inactive card's queue is
    INACTIVE whatever its burial), and no card snapshot: undo puts the units back and their
    cards follow them by the rule (follow_status; a card is active exactly when its unit is
    confirmed). Returns how many cards the units have. A 100k-card trash: one card write of
    the three passes over its cards and the 100k-row snapshot (with its undo's delete) gone."""
    params = {"j": journal, "now": now}
    exec_sql(f"UPDATE card SET {set_with_queue({'active': '0'})} WHERE {_MINE} AND active != 0", params)
    return int(exec_sql(f"SELECT COUNT(*) FROM card WHERE {_MINE}", params).fetchone()[0])


@translated
def follow_status(journal: int, now: int) -> None:
    """Cards of the journal's units active exactly when their unit is confirmed, their queue
    written with the flag, and anew where a burial ended since: one pass, each card written only
    where its flag or its queue changes (a second pass for the burials read 100k cards again in
    a trash's undo, ~0.1 s CPU)."""
    new = {"active": "u.confirmed"}
    exec_sql(
        f"UPDATE card SET {set_with_queue(new, row='card.')} "
        "FROM (SELECT id, status = 'confirmed' AS confirmed FROM unit "
        "WHERE id IN (SELECT unit_id FROM bulk_unit WHERE journal_id = :j)) u "
        f"WHERE card.unit_id = u.id AND (card.active != u.confirmed OR card.queue != ({queue_after(new, row='card.')}))",
        {"j": journal, "now": now},
    )


@translated
def pin_due(journal: int, days_per_stability: float) -> None:
    """Re-time the journal's units' review cards for a new retention (pin / unpin): the interval
    in whole days is S x days_per_stability (scheduler.interval_for's rule), at least one."""
    exec_sql(
        "UPDATE card SET due = last_review + 86400 * MAX(1, CAST(ROUND(stability * :k) AS INTEGER)) "
        f"WHERE state = 2 AND stability > 0 AND last_review IS NOT NULL AND {_MINE}",
        {"k": days_per_stability, "j": journal},
    )


@translated
def snapshot_unit_cards(journal: int) -> int:
    """Snapshot the cards of the journal's units (before pin_due changes them)."""
    return snapshot_cards(journal, _MINE, {})
