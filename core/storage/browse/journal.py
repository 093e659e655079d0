"""The rows a bulk action is about and its undo journal entry (core.storage.browse.actions and
unit_actions write the changes).

A bulk action (1) puts the rows it is about (a selection, or every row of a filter) in the temp
table `browse_target`, (2) opens its entry in the one undo journal (core/storage/journal.py) with
its details here (bulk_journal: the entry's `journal_id`; its snapshots are keyed by the details'
own id), (3) snapshots the rows that will change into bulk_card / bulk_unit (INSERT ... SELECT:
no row passes through Python), (4) changes exactly the snapshotted rows. All of it runs inside the caller's transaction (core.services.browse.service).
An action may change a library setting with its cards (the schedule's easy days and vacations):
`set_setting` writes it and keeps its value before and after with the entry, for the undo.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from core.domain.browse import RowKey
from core.domain.undo import Kind, Scope
from core.storage import journal as undo_journal
from core.storage.browse.models import CARD_COLUMNS, BulkJournal
from core.storage.db import db
from core.storage.errors import translated
from core.storage.models import Setting
from core.storage.review.cards import put_setting

JOURNAL_KEEP = 20  # bulk actions kept for undo (a 100k-card snapshot is ~10 MB)
TARGET = "temp.browse_target"
# The page cache of a bulk action's connection while it runs (KiB; the usual is db._PRAGMAS').
# A forget of 100k cards in the 1M-card bench library rewrites entries all over six card indexes
# (~150 MB of pages; seven before schema 8 dropped Browse's due index) and in the usual 64 MB
# cache re-reads pages it had just written: its UPDATE took 4.2-4.5 s CPU, 2.4-2.8 s with this one
# (a postpone 2.0 -> 1.7, a suspend about the same). Pages are taken only as the action needs them
# and given back after it, to the allocator: the process's RSS after a 100k forget and its undo is
# ~350 MB (~250 MB with the usual cache; 155 MB once glibc's malloc_trim returns the freed pages).
BULK_CACHE_KIB = 256 * 1024


@dataclass(frozen=True, slots=True)
class Changed:
    cards: int
    units: int


@contextmanager
@translated
def bulk_cache() -> Iterator[None]:
    """The block runs with a page cache of BULK_CACHE_KIB, the connection's own put back after."""
    usual = int(db.execute_sql("PRAGMA cache_size").fetchone()[0])
    db.execute_sql(f"PRAGMA cache_size = -{BULK_CACHE_KIB:d}")
    try:
        yield
    finally:
        db.execute_sql(f"PRAGMA cache_size = {usual:d}")


@translated
def exec_sql(sql: str, params: dict[str, Any] | tuple[Any, ...] = ()) -> Any:
    return db.execute_sql(sql, params)


@translated
def clear_target() -> None:
    """An empty `browse_target` (a temp table: this connection's own, gone when it closes)."""
    exec_sql("CREATE TEMP TABLE IF NOT EXISTS browse_target (card_id INTEGER, unit_id INTEGER NOT NULL)")
    exec_sql(f"DELETE FROM {TARGET}")


@translated
def target_rows(select_sql: str, params: dict[str, Any]) -> None:
    """Add `SELECT card id, unit id ...` rows (Browse's filter, core.storage.browse.where.target_sql)."""
    exec_sql(f"INSERT INTO {TARGET} (card_id, unit_id) {select_sql}", params)


@translated
def target_keys(keys: Iterable[RowKey]) -> None:
    cards = [(k.card_id,) for k in keys if k.card_id is not None]
    units = [(k.unit_id,) for k in keys if k.card_id is None]
    con = db.connection()
    con.executemany(
        f"INSERT INTO {TARGET} (card_id, unit_id) SELECT id, unit_id FROM card WHERE id = ?", cards
    )
    con.executemany(f"INSERT INTO {TARGET} (card_id, unit_id) VALUES (NULL, ?)", units)


@translated
def target_article(article_id: int) -> None:
    exec_sql(
        f"INSERT INTO {TARGET} (card_id, unit_id) SELECT NULL, id FROM unit WHERE article_id = ?",
        (article_id,),
    )


@translated
def target_trashed_since(article_id: int, since: int) -> None:
    """The article's units trashed at `since` or later (with its deletion, or after)."""
    exec_sql(
        f"INSERT INTO {TARGET} (card_id, unit_id) SELECT NULL, id FROM unit "
        "WHERE article_id = ? AND status = 'trashed' AND trashed_at >= ?",
        (article_id, since),
    )


@translated
def open_journal(action: str, now: int, *, article_id: int | None = None) -> int:
    """A new bulk action: its entry in the one journal (core/storage/journal.py) and its
    details here; returns the details' id (what the snapshots are keyed by). Older actions
    beyond JOURNAL_KEEP are dropped with their snapshots and entries."""
    entry_id = undo_journal.append(Kind.BULK, Scope.BULK, action, now, article_id=article_id)
    entry = BulkJournal.create(action=action, at=now, article_id=article_id, journal_id=entry_id)
    old = exec_sql(
        "SELECT id, journal_id FROM bulk_journal WHERE undone = 0 ORDER BY id DESC LIMIT -1 OFFSET ?",
        (JOURNAL_KEEP,),
    ).fetchall()
    stale = [r[0] for r in old]
    if stale:
        marks = ", ".join("?" * len(stale))
        for table in ("bulk_card", "bulk_unit"):
            exec_sql(f"DELETE FROM {table} WHERE journal_id IN ({marks})", tuple(stale))
        exec_sql(f"DELETE FROM bulk_journal WHERE id IN ({marks})", tuple(stale))
        undo_journal.forget([int(r[1]) for r in old if r[1] is not None])
    return int(entry.id)


@translated
def snapshot_cards(journal: int, where: str, params: dict[str, Any]) -> int:
    """Copy the cards `where` selects into the journal's snapshot; returns how many."""
    cols = ", ".join(CARD_COLUMNS)
    cur = exec_sql(
        f"INSERT INTO bulk_card (journal_id, card_id, {cols}) SELECT :j, id, {cols} FROM card WHERE {where}",
        {**params, "j": journal},
    )
    return int(cur.rowcount or 0)


@translated
def change_count(journal: int, cards: int) -> None:
    count(journal, cards, 0)


@translated
def count(journal: int, cards: int, units: int) -> None:
    exec_sql(
        "UPDATE bulk_journal SET cards = cards + ?, units = units + ? WHERE id = ?", (cards, units, journal)
    )


@translated
def set_setting(journal: int, key: str, value: Any) -> None:
    """The library setting `key` set to `value` as part of the journal's action (in its
    transaction). What it held before and holds now are kept with the entry, so the undo puts
    it back with the cards (core.storage.browse.actions.undo); a value it already held is no
    change, and nothing is kept."""
    before = _setting_json(key)
    put_setting(key, value)
    after = _setting_json(key)
    if after != before:
        BulkJournal.update(setting_key=key, setting_before=before, setting_after=after).where(
            BulkJournal.id == journal
        ).execute()


def _setting_json(key: str) -> str | None:
    row = Setting.get_or_none(Setting.key == key)
    return None if row is None else str(row.value_json)


@translated
def put_setting_back(entry: BulkJournal) -> bool:
    """The undo of the entry's setting change (inside the caller's transaction): its value
    before, while the setting still holds what the action wrote. False when it was changed
    since (it stays as it is)."""
    key = entry.setting_key
    if key is None:
        return True
    if _setting_json(key) != entry.setting_after:
        return False
    if entry.setting_before is None:
        Setting.delete().where(Setting.key == key).execute()
    else:
        Setting.replace(key=key, value_json=entry.setting_before).execute()
    return True


@translated
def drop_if_empty(bulk_id: int) -> bool:
    """Forget a bulk action that changed nothing (nothing to undo), its journal entry with it.
    True when dropped."""
    row = exec_sql(
        "SELECT cards, units, article_id, setting_key, journal_id FROM bulk_journal WHERE id = ?", (bulk_id,)
    ).fetchone()
    if row and not row[0] and not row[1] and row[2] is None and row[3] is None:
        exec_sql("DELETE FROM bulk_journal WHERE id = ?", (bulk_id,))
        undo_journal.forget([int(row[4])] if row[4] is not None else [])
        return True
    return False


@translated
def of_entry(entry_id: int) -> BulkJournal | None:
    """The details of journal entry `entry_id` (None: pruned, or already undone)."""
    return BulkJournal.get_or_none((BulkJournal.journal_id == entry_id) & (BulkJournal.undone == False))  # noqa: E712
