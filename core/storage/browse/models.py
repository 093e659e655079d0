"""Browse's tables: the bulk-action journal (what undo puts back) and the deleted articles.

A bulk action snapshots the rows it is about to change into bulk_card / bulk_unit in the same
transaction as the change (INSERT ... SELECT: no row passes through Python, so 100k cards cost
one statement), and undo writes them back. A deleted article stays a row with its paragraphs:
it is listed in article_trash, its units are in the trash, and both come back on restore (or are
purged for good with the unit trash, 30 days on).
"""

from __future__ import annotations

import peewee

from core.storage.browse.indexes import SORT_INDEXES
from core.storage.db import MIGRATIONS, BaseModel, register_models, register_schema_hook
from core.storage.models import Article
from core.storage.review.models import CHANGING, INDEX_KEYS

# The card and unit columns a bulk action may change, snapshotted before it and put back by undo.
# Their order is stored: a journal's `after` is a json_array in it (tests/test_card_rows.py).
CARD_COLUMNS = (*CHANGING, *INDEX_KEYS)
UNIT_COLUMNS = (
    "status", "status_before_trash", "pinned", "tags_json", "trashed_at", "updated_at", "anchor", "deck_id",
)  # fmt: skip


class BulkJournal(BaseModel):
    """One bulk action, undoable until undone (the newest first)."""

    action = peewee.CharField()
    cards = peewee.IntegerField(default=0)
    units = peewee.IntegerField(default=0)
    article_id = peewee.IntegerField(null=True)  # an article deleted by this action
    at = peewee.IntegerField()
    undone = peewee.BooleanField(default=False)
    # The newest review_log id when the action ran (schema 9): a unit whose cards were answered
    # after it (a later id) is left as it is by the undo of a status action.
    log_mark = peewee.IntegerField(null=True)
    # A library setting the action changed with its cards (schema 10: easy days, vacations): its
    # key and value_json before (NULL: there was none) and after. The undo puts `before` back
    # while the setting still holds `after` (core.storage.browse.journal.set_setting).
    setting_key = peewee.CharField(null=True)
    setting_before = peewee.TextField(null=True)
    setting_after = peewee.TextField(null=True)
    journal_id = peewee.IntegerField(null=True, index=True)  # its entry in the one journal (schema 12)


class BulkCard(BaseModel):
    journal = peewee.ForeignKeyField(BulkJournal, on_delete="CASCADE", index=False)
    card_id = peewee.IntegerField()
    state = peewee.IntegerField()
    step = peewee.IntegerField(null=True)
    stability = peewee.FloatField(null=True)
    difficulty = peewee.FloatField(null=True)
    due = peewee.IntegerField()
    last_review = peewee.IntegerField(null=True)
    reps = peewee.IntegerField()
    lapses = peewee.IntegerField()
    queue = peewee.IntegerField()
    active = peewee.BooleanField()
    suspended = peewee.BooleanField()
    leech = peewee.BooleanField()
    buried_until = peewee.IntegerField(null=True)
    sbucket = peewee.IntegerField()
    t90 = peewee.IntegerField(null=True)
    # What the action left in the columns it wrote (and reps), as json_array (schema 9): undo
    # writes the row back only while it still holds that (core.storage.browse.actions.seal).
    after = peewee.TextField(null=True)

    class Meta:
        indexes = ((("journal", "card_id"), True),)  # undo reads a journal's cards by card


class BulkUnit(BaseModel):
    journal = peewee.ForeignKeyField(BulkJournal, on_delete="CASCADE", index=True)
    unit_id = peewee.IntegerField()
    status = peewee.CharField()
    status_before_trash = peewee.CharField(null=True)
    pinned = peewee.BooleanField()
    tags_json = peewee.TextField()
    trashed_at = peewee.IntegerField(null=True)
    updated_at = peewee.IntegerField()
    anchor = peewee.CharField()
    deck_id = peewee.IntegerField(null=True)  # the unit's deck override (schema 4)
    after = peewee.TextField(null=True)  # as BulkCard.after (schema 9)


class ArticleTrash(BaseModel):
    """A deleted article: hidden from the library, restorable until purged with its units."""

    article = peewee.ForeignKeyField(Article, primary_key=True, on_delete="CASCADE")
    trashed_at = peewee.IntegerField(index=True)


def _sort_indexes(database: peewee.SqliteDatabase) -> None:
    """The indexes Browse's sorts read in order (core.storage.browse.rows.PLANS): made once, when
    a library first opens with Browse (~1 s per index on a million cards)."""
    for name, target in SORT_INDEXES.items():
        database.execute_sql(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")


register_models(BulkJournal, BulkCard, BulkUnit, ArticleTrash)
register_schema_hook(_sort_indexes, creates=tuple(SORT_INDEXES))

# An article purged while units are in its deck: their unit.deck_id goes NULL by its foreign key
# (back to their own decks), and the undo snapshots forget it too, so an undo never puts back a
# deck that no longer exists (that would break the key and block every older undo). Purges are
# rare and few articles at a time: the scan of bulk_unit is not indexed.
_DECK_GONE = (
    "CREATE TRIGGER IF NOT EXISTS article_deck_gone AFTER DELETE ON article BEGIN "
    "UPDATE bulk_unit SET deck_id = NULL WHERE deck_id = OLD.id; END"
)


def _deck_gone(database: peewee.SqliteDatabase) -> None:
    database.execute_sql(_DECK_GONE)


register_schema_hook(_deck_gone, creates=("article_deck_gone",))


def _to_v6(database: peewee.SqliteDatabase) -> None:
    """Schema 6: the unit status index (status) goes; browse_unit_status (status, id) holds the
    same order and serves every status read, and a bulk trash of 50k units moves one index entry
    fewer per unit (~0.08 s CPU of its 0.35 s unit write, and of its undo's)."""
    database.execute_sql("DROP INDEX IF EXISTS unit_status")


MIGRATIONS[6] = _to_v6


def _to_v8(database: peewee.SqliteDatabase) -> None:
    """Schema 8: Browse's due index (due, id) goes; the sort by due reads card_queue_due, one
    range per queue merged (core.storage.browse.by_queue), and every write of a card's due moves
    one index entry fewer (~0.9 s CPU of a 100k-card forget on the 1M-card bench library)."""
    database.execute_sql("DROP INDEX IF EXISTS browse_card_due")


MIGRATIONS[8] = _to_v8

# Pinned units, for the schedule tools (core.storage.browse.schedule: a pinned unit's cards keep
# their own retention when the others are re-timed or forecast). Partial: a few entries, written
# only by a pin or an unpin; without it every such read scanned the unit table (0.24 s CPU on
# 500k units) or joined each review card to its unit (5-7 s on a million cards).
PINNED_INDEX = "unit_pinned"


def _pinned_index(database: peewee.SqliteDatabase) -> None:
    database.execute_sql(f"CREATE INDEX IF NOT EXISTS {PINNED_INDEX} ON unit (id) WHERE pinned = 1")


register_schema_hook(_pinned_index, creates=(PINNED_INDEX,))


def _to_v9(database: peewee.SqliteDatabase) -> None:
    """Schema 9: an undo takes back its own change only. Each snapshot row records what the
    action left (`after`), the journal the newest answer before it (`log_mark`); rows changed
    since (an answer, an edit, another tool) are left as they are. Entries from before have
    neither and undo as they did."""
    for table, column, kind in (
        ("bulk_card", "after", "TEXT"),
        ("bulk_unit", "after", "TEXT"),
        ("bulk_journal", "log_mark", "INTEGER"),
        ("undo_entry", "after_json", "TEXT"),  # the review journal's (core.storage.review.writes)
    ):
        present = {r[1] for r in database.execute_sql(f"PRAGMA table_info({table})").fetchall()}
        if present and column not in present:  # a table not there yet is made whole after
            database.execute_sql(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


MIGRATIONS[9] = _to_v9


def _to_v10(database: peewee.SqliteDatabase) -> None:
    """Schema 10: a journal entry may carry the library setting its action changed with the
    cards (setting easy days, adding a vacation: the setting and the move are one change, and
    one undo). Entries from before carry none."""
    present = {r[1] for r in database.execute_sql("PRAGMA table_info(bulk_journal)").fetchall()}
    for column in ("setting_key", "setting_before", "setting_after"):
        if present and column not in present:  # a table not there yet is made whole after
            kind = "VARCHAR(255)" if column == "setting_key" else "TEXT"
            database.execute_sql(f"ALTER TABLE bulk_journal ADD COLUMN {column} {kind}")


MIGRATIONS[10] = _to_v10
