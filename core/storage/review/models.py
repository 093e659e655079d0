"""Cards, review logs and the undo journal (owned by the scheduler/review work).

A card is one recall question of a confirmed unit. `queue` (a `Queue`) is what the session
reads: new, learning (intraday), review, suspended, buried (until `buried_until`), inactive
(the unit is not confirmed). It is derived from the FSRS `state` and the flags (`active`,
`suspended`, `buried_until`) by one rule, below, in its Python form (`queue_for`) and its SQL
form (`queue_sql`, and `queue_after` for an UPDATE that changes what it follows), both built from
the same table; so suspending a card of a trashed unit and restoring the unit brings it back
suspended. Times are UTC epoch seconds. The covering index (queue, sbucket, t90, due,
last_review, stability, unit) of the review queue's cards (SESSION_INDEX) lets a session find the
due cards of lowest retrievability bucket by bucket without reading the other rows (see
queue.due_review_candidates).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import peewee

from core.domain.states import Queue, State
from core.storage.db import MIGRATIONS, BaseModel, register_models, register_schema_hook
from core.storage.models import Question, Unit

# The card's columns by role. Its fields (core.domain.card.Card) are set when it is made (MADE)
# or change with answers, card actions and their undo (CHANGING, below the table: written,
# snapshotted and put back whole); the session index's keys (INDEX_KEYS) are worked out from
# them on every write.
MADE = ("id", "unit_id", "question_id", "created_at")
INDEX_KEYS = ("sbucket", "t90")

# The queue rule. The first flag that holds decides, in this order; a card with none goes by its
# FSRS state (learning and relearning: the intraday LEARNING queue).
FLAG_ORDER = (Queue.INACTIVE, Queue.SUSPENDED, Queue.BURIED)
STATE_QUEUE: dict[int, Queue] = {State.NEW: Queue.NEW, State.REVIEW: Queue.REVIEW}


def queue_for(state: int, *, active: bool, suspended: bool, buried: bool) -> Queue:
    """The queue of a card in this state with these flags."""
    flags = {Queue.INACTIVE: not active, Queue.SUSPENDED: suspended, Queue.BURIED: buried}
    for queue in FLAG_ORDER:
        if flags[queue]:
            return queue
    return STATE_QUEUE.get(state, Queue.LEARNING)


def queue_sql(
    *,
    active: str = "active",
    suspended: str = "suspended",
    state: str = "state",
    buried: str | None = "buried_until > :now",
) -> str:
    """`queue_for` as an SQL expression over a card row, built from the same rule.

    Every argument is SQL: a statement that sets a flag or the state passes the new value (SET
    expressions see the row as it was), so the queue is written by the same UPDATE as what it
    follows, and `buried=None` is for cards known not to be buried. The default `buried` reads
    the `:now` parameter.
    """
    flags = {Queue.INACTIVE: f"NOT ({active})", Queue.SUSPENDED: f"({suspended})", Queue.BURIED: buried}
    whens = [f"WHEN {flags[q]} THEN {q:d}" for q in FLAG_ORDER if flags[q] is not None]
    whens += [f"WHEN ({state}) = {s:d} THEN {q:d}" for s, q in STATE_QUEUE.items()]
    return f"CASE {' '.join(whens)} ELSE {Queue.LEARNING:d} END"


def queue_after(new: Mapping[str, str], *, row: str = "") -> str:
    """The queue (`queue_sql`) of a card once `new` (column -> SQL of its new value) is written;
    the other columns are read from the row (`row` is its qualifier, "card." beside a FROM)."""

    def value(column: str) -> str:
        return new.get(column, f"{row}{column}")

    return queue_sql(
        active=value("active"),
        suspended=value("suspended"),
        state=value("state"),
        buried=f"{value('buried_until')} > :now",
    )


def set_with_queue(new: Mapping[str, str], *, row: str = "") -> str:
    """An UPDATE's SET clause writing `new` (column -> SQL) and the queue that follows from it
    (queue_after): one write of each row and its index entries, not one for the flag and another
    for the queue."""
    assigned = [f"{column} = {value}" for column, value in new.items() if column != "queue"]
    return ", ".join([*assigned, f"queue = ({queue_after(new, row=row)})"])


# Cards are grouped by stability in eighth-octaves (bucket b holds 2^(b/8) <= S < 2^((b+1)/8)),
# so the session can find the lowest-retrievability cards bucket by bucket through an index.
PER_OCTAVE = 8
BUCKET_MIN, BUCKET_MAX, NO_BUCKET = -80, 128, -1000  # S from 2^-10 (< fsrs' 0.001) to 2^16 days


def stability_bucket(stability: float | None) -> int:
    if stability is None or stability <= 0:
        return NO_BUCKET
    return max(BUCKET_MIN, min(BUCKET_MAX, math.floor(PER_OCTAVE * math.log2(stability))))


def bucket_bounds(bucket: int) -> tuple[float, float]:
    """Smallest and largest stability in a bucket (a hair wider, against rounding)."""
    lo = float(2 ** (bucket / PER_OCTAVE)) * 0.999 if bucket > BUCKET_MIN else 0.0
    hi = float(2 ** ((bucket + 1) / PER_OCTAVE)) * 1.001 if bucket < BUCKET_MAX else math.inf
    return lo, hi


def t90(last_review: int | None, stability: float | None) -> int | None:
    """When retrievability falls to 0.9: FSRS's curve has R(S days) = 0.9 by construction."""
    if last_review is None or stability is None:
        return None
    return last_review + round(stability * 86400)


class Card(BaseModel):
    question = peewee.ForeignKeyField(Question, unique=True, backref="cards", on_delete="CASCADE")
    unit = peewee.ForeignKeyField(Unit, backref="cards", on_delete="CASCADE", index=True)
    state = peewee.IntegerField(default=State.NEW)  # a State: new, learning, review, relearning
    step = peewee.IntegerField(null=True)
    stability = peewee.FloatField(null=True)
    difficulty = peewee.FloatField(null=True)
    due = peewee.IntegerField()  # epoch; new cards: creation time (their order)
    last_review = peewee.IntegerField(null=True)
    reps = peewee.IntegerField(default=0)  # == number of review log rows
    lapses = peewee.IntegerField(default=0)
    queue = peewee.IntegerField(default=Queue.NEW)  # a Queue, by the rule above
    active = peewee.BooleanField(default=True)  # the unit is confirmed
    suspended = peewee.BooleanField(default=False)
    leech = peewee.BooleanField(default=False)  # tagged when it became a leech
    buried_until = peewee.IntegerField(null=True)
    created_at = peewee.IntegerField()
    sbucket = peewee.IntegerField(default=NO_BUCKET)  # stability_bucket(stability): session index
    t90 = peewee.IntegerField(null=True)  # when R falls to 0.9: last_review + stability days

    class Meta:
        indexes = ((("queue", "due"), False),)


# Every other column of the table, in its order: the card table's columns are the domain Card's
# fields and its index keys (tests/test_card_rows.py). Read from the table, not from Card's fields
# (core.storage.converters.CARD_FIELDS): this module is loaded when the library is opened, before
# the first frame, and building the domain dataclasses then cost ~120M instructions of a ~1.2G
# cold start (tests/test_tui_perf_startup.py pins it).
CHANGING = tuple(f.column_name for f in Card._meta.sorted_fields if f.column_name not in (*MADE, *INDEX_KEYS))


# The session index holds the review queue's cards only (partial; schema 5): suspending,
# burying or retiring a review card deletes its entry instead of moving it to another queue's
# keys, and new or suspended cards cost it nothing. The session's queries say `queue = 2` as the
# index does, so SQLite reads it (covering: `queue` stays its first column, which SQLite 3.40
# needs to cover a query naming the column).
SESSION_INDEX = "card_review_session"
_REVIEW = int(Queue.REVIEW)
Card.add_index(
    Card.queue, Card.sbucket, Card.t90, Card.due, Card.last_review, Card.stability, Card.unit,
    where=(Card.queue == _REVIEW), name=SESSION_INDEX,
)  # fmt: skip

# Why card_queue_due (queue, due) stays whole (measured 2026-12-02 on bench_browse's 1M-card
# library, a 100k-card suspend's card UPDATE alone, CPU, load 1-2): as it is 0.85-1.05 s; without
# card_queue_due 0.49, without the session index 0.48, without the due-day triggers 0.80, with
# neither index 0.06 (an index entry written is ~4 us, a trigger ~1 us). Made partial (queue >= 0)
# with another index (queue, due) WHERE queue < 0 for the readers of suspended, buried and
# inactive cards (Browse's state sort, is:suspended, unbury, stats) it is 0.94-1.03: the entry
# still moves, to the other index. Only keying that other index by (queue, id), so its inserts
# append, gains (0.74-0.76), and that changes the state sort's order among suspended cards and
# makes every `queue = ?` reader repeat the partial WHERE; not worth ~0.15 s of a 1.1 s action.


class ReviewLog(BaseModel):
    card = peewee.ForeignKeyField(Card, backref="logs", on_delete="CASCADE", index=True)
    rating = peewee.IntegerField()  # 1 again, 2 hard, 3 good, 4 easy
    reviewed_at = peewee.IntegerField(index=True)  # effective time (never before the previous review)
    wall_at = peewee.IntegerField()  # what the clock said
    state_before = peewee.IntegerField()
    elapsed_days = peewee.IntegerField(default=0)
    scheduled_days = peewee.IntegerField(default=0)
    stability = peewee.FloatField(null=True)  # after the answer
    difficulty = peewee.FloatField(null=True)
    duration_ms = peewee.IntegerField(null=True)
    clock_skew_s = peewee.IntegerField(default=0)


class UndoEntry(BaseModel):
    """The details of one review action's journal entry (core/storage/journal.py): the card rows
    (and unit pin) as they were before it."""

    action = peewee.CharField()  # rate / suspend / unsuspend / bury / pin / unpin / postpone
    cards_json = peewee.TextField(default="[]")  # card rows before the action
    unit_id = peewee.IntegerField(null=True)
    pinned_before = peewee.BooleanField(null=True)
    review_log_id = peewee.IntegerField(null=True)  # the log row a rating added
    card_id = peewee.IntegerField(null=True)  # the card the action was about (shown again on undo)
    at = peewee.IntegerField()
    # the same card rows as the action left them (schema 9): undo puts back only rows still so
    after_json = peewee.TextField(null=True)
    journal_id = peewee.IntegerField(null=True, index=True)  # its entry in the one journal (schema 12)


# Review cards due per UTC day (day = due // 86400), kept by triggers so load balancing reads a
# handful of rows instead of counting every card due in the fuzz range. An update that moves a
# card out of the counted (queue, day) runs one statement, into one the other (schema 5: one
# trigger ran both for every card leaving review, ~0.4 s CPU of a 100k-card bulk suspend).
_R = _REVIEW
_MOVED = "(OLD.queue != NEW.queue OR OLD.due / 86400 != NEW.due / 86400)"
_DUE_DAY_SQL = (
    "CREATE TABLE IF NOT EXISTS review_due_day (day INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
    f"CREATE TRIGGER IF NOT EXISTS card_due_day_ins AFTER INSERT ON card WHEN NEW.queue = {_R} BEGIN "
    "INSERT INTO review_due_day (day, n) VALUES (NEW.due / 86400, 1) "
    "ON CONFLICT (day) DO UPDATE SET n = n + 1; END",
    f"CREATE TRIGGER IF NOT EXISTS card_due_day_del AFTER DELETE ON card WHEN OLD.queue = {_R} BEGIN "
    "UPDATE review_due_day SET n = n - 1 WHERE day = OLD.due / 86400; END",
    "CREATE TRIGGER IF NOT EXISTS card_due_day_out AFTER UPDATE OF queue, due ON card "
    f"WHEN OLD.queue = {_R} AND {_MOVED} BEGIN "
    "UPDATE review_due_day SET n = n - 1 WHERE day = OLD.due / 86400; END",
    "CREATE TRIGGER IF NOT EXISTS card_due_day_in AFTER UPDATE OF queue, due ON card "
    f"WHEN NEW.queue = {_R} AND {_MOVED} BEGIN "
    "INSERT INTO review_due_day (day, n) VALUES (NEW.due / 86400, 1) "
    "ON CONFLICT (day) DO UPDATE SET n = n + 1; END",
)
_DUE_DAY_NAMES = (
    "review_due_day",
    "card_due_day_ins",
    "card_due_day_del",
    "card_due_day_out",
    "card_due_day_in",
)


def _due_day_schema(database: peewee.SqliteDatabase) -> None:
    fresh = not database.execute_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_due_day'"
    ).fetchone()
    for sql in _DUE_DAY_SQL:
        database.execute_sql(sql)
    if fresh:  # a database from before the counter: count once
        database.execute_sql(
            f"INSERT INTO review_due_day (day, n) SELECT due / 86400, COUNT(*) FROM card WHERE queue = {_R} GROUP BY 1"
        )


register_models(Card, ReviewLog, UndoEntry)
register_schema_hook(_due_day_schema, creates=_DUE_DAY_NAMES)


def _to_v5(database: peewee.SqliteDatabase) -> None:
    """Schema 5: the session index made partial (review cards only) under its new name, and the
    due-day update trigger split in two; the create pass that follows makes the new ones (the
    counter itself is unchanged)."""
    database.execute_sql("DROP INDEX IF EXISTS card_queue_sbucket_t90_due_last_review_stability_unit_id")
    database.execute_sql("DROP TRIGGER IF EXISTS card_due_day_upd")


MIGRATIONS[5] = _to_v5
