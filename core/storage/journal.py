"""The one undo journal: every undoable write appends an entry here, in its own transaction.

An entry says what was done (`action`), when, where (`scope`: Review; Triage and the Article;
Browse, Trash and Schedule) and whose put-back undoes it (`kind`: a review action, a curation
step, a bulk action); its details, what the put-back needs, are the kind's own child rows keyed
by the entry's id (`journal_id` of undo_entry, curation_event and bulk_journal:
core/storage/review/writes.py, curation.py, browse/journal.py). Undo is this table read
backwards: the newest entry not undone of the caller's scope (and article, for Triage and the
Article screen) goes to its kind's put-back (core/services/undo.py). Most kinds are done in
their own scope; a card you make is a curation step done in Review or in the Article.

Entries before schema 12 lived in the three child tables alone, each with its own order; the
step to 12 gives every pending one (review entries, curation steps not undone, with a batch's
events under one entry, bulk actions not undone) an entry here, in its table's order.
"""

from __future__ import annotations

import peewee

from core.domain.undo import Kind, Scope
from core.storage.db import MIGRATIONS, BaseModel, db, register_models
from core.storage.errors import translated


class Journal(BaseModel):
    """One undoable action; undone once taken back (a review entry goes: its details are gone)."""

    kind = peewee.CharField()  # review / curation / bulk (core.domain.undo.Kind): its put-back
    scope = peewee.CharField()  # where undo takes it back (core.domain.undo.Scope): where it was done
    action = peewee.CharField()  # rate, accept, suspend, easy_days ...
    article_id = peewee.IntegerField(null=True)  # curation: the step's article; bulk: a deleted one
    at = peewee.IntegerField()
    undone = peewee.BooleanField(default=False)

    class Meta:
        # the newest not undone of a kind (and of an article): read backwards by these
        indexes = ((("scope", "undone", "id"), False), (("article_id", "scope", "undone", "id"), False))


register_models(Journal)


@translated
def append(kind: Kind, scope: Scope, action: str, now: int, *, article_id: int | None = None) -> int:
    """A new entry (inside the caller's write transaction, the one of the write it undoes)."""
    cur = db.execute_sql(
        "INSERT INTO journal (kind, scope, action, article_id, at, undone) VALUES (?, ?, ?, ?, ?, 0)",
        (kind.value, scope.value, action, article_id, now),
    )
    return int(cur.lastrowid)


@translated
def newest(scope: Scope, article_id: int | None = None) -> Journal | None:
    """The latest entry of `scope` not undone (of one article: Triage and the Article screen)."""
    q = Journal.select().where((Journal.scope == scope.value) & (Journal.undone == False))  # noqa: E712
    if article_id is not None:
        q = q.where(Journal.article_id == article_id)
    return q.order_by(Journal.id.desc()).first()


@translated
def mark_undone(entry_id: int) -> None:
    db.execute_sql("UPDATE journal SET undone = 1 WHERE id = ?", (entry_id,))


@translated
def forget(entry_ids: list[int]) -> None:
    """Entries whose details are gone: pruned (too old to undo), changed nothing, or a review
    entry taken back (its card rows were put back and deleted)."""
    if entry_ids:
        marks = ", ".join("?" * len(entry_ids))
        db.execute_sql(f"DELETE FROM journal WHERE id IN ({marks})", tuple(entry_ids))


_CHILDREN = ("undo_entry", "curation_event", "bulk_journal")  # the kinds' details, by journal_id


# No entry: written before schema 12, or read from a library file whose journal rows are missing
# (its details' journal_id names an entry that is not there: a new entry could take that id, and
# one undo would then put back both).
def _no_entry(column: str = "journal_id") -> str:
    return f"({column} IS NULL OR {column} NOT IN (SELECT id FROM journal))"


# The details an undo could still take back that have no entry: (detail id, kind, action,
# article id, at, batch key), in their table's order.
_PENDING = {
    "undo_entry": f"SELECT id, 'review', action, NULL, at, NULL FROM undo_entry WHERE {_no_entry()} ORDER BY id",
    "bulk_journal": "SELECT id, 'bulk', action, article_id, at, NULL FROM bulk_journal "
    f"WHERE undone = 0 AND {_no_entry()} ORDER BY id",
    # a batch's events (one action over several units, one `batch` key and time) become one entry
    "curation_event": "SELECT e.id, 'curation', e.action, u.article_id, e.at, "
    "json_extract(e.before_json, '$.batch') FROM curation_event e JOIN unit u ON u.id = e.unit_id "
    f"WHERE e.undone = 0 AND e.action != 'undo' AND {_no_entry('e.journal_id')} "
    "ORDER BY e.id",
}


@translated
def adopt(database: peewee.SqliteDatabase) -> int:
    """Give every pending detail row without a journal entry (a library or a library file from
    before schema 12, or a file whose journal rows are missing) its entry, in its table's order (kinds are undone apart: their relative
    order is not needed). Inside the caller's transaction; returns how many entries."""
    made = 0
    tables = {r[0] for r in database.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # every table's rows read before any entry is made: a new entry may take an id that a later
    # table's orphaned rows name
    pending = {
        table: database.execute_sql(sql).fetchall()
        for table, sql in _PENDING.items()
        if table in tables and (table != "curation_event" or "unit" in tables)
    }
    for table, rows in pending.items():
        entries: dict[tuple[object, object], int] = {}
        for child, kind, action, article_id, at, batch in rows:
            key = (batch, at) if batch is not None else ("", child)
            if key not in entries:
                entries[key] = int(
                    database.execute_sql(
                        "INSERT INTO journal (kind, scope, action, article_id, at, undone) "
                        "VALUES (?, ?, ?, ?, ?, 0)",
                        (kind, kind, action, article_id, at),  # done where its kind is undone
                    ).lastrowid
                )
            database.execute_sql(f"UPDATE {table} SET journal_id = ? WHERE id = ?", (entries[key], child))
        made += len(entries)
    return made


def _to_v12(database: peewee.SqliteDatabase) -> None:
    """Schema 12: one journal. The kinds' detail tables gain `journal_id`, and every detail an
    undo could still take back gets its entry (`adopt`)."""
    for table in _CHILDREN:
        present = {r[1] for r in database.execute_sql(f"PRAGMA table_info({table})").fetchall()}
        if present and "journal_id" not in present:
            database.execute_sql(f"ALTER TABLE {table} ADD COLUMN journal_id INTEGER")
    database.create_tables([Journal], safe=True)
    adopt(database)  # (a table not there yet is made whole by the create pass, with nothing in it)


MIGRATIONS[12] = _to_v12
