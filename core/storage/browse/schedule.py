"""Schedule tools' reads: review cards due on given days, cards due per day, and each day's
count at other retentions (S x days_per_stability days after the last review, in SQL over every
review card's entry in the covering session index: one pass for every retention).

Pinned units keep their own retention: their cards are found through the partial index of
pinned units (`unit_pinned`, a handful of entries), never by joining each card to its unit
(a million random reads of the wide unit rows: 5-7 s CPU a query on bench_browse's 1M-card
library, against 0.4 s for the pass over the index)."""

from __future__ import annotations

from collections.abc import Sequence

from core.domain.review import Queue
from core.storage.db import db
from core.storage.errors import translated

DAY = 86400
_REVIEWING = f"queue = {Queue.REVIEW:d}"
PINNED_CARD = "unit_id IN (SELECT id FROM unit WHERE pinned = 1)"  # read through unit_pinned
_RETIMED = "last_review IS NOT NULL AND stability > 0"


@translated
def due_on(first_day: int, days: Sequence[int]) -> list[tuple[int, int, int]]:
    """(card id, due, last review) of the review cards with a stability due on the given day
    indexes from UTC day `first_day` (index 0 takes the overdue cards too)."""
    wanted = sorted({first_day + int(d) for d in days if d >= 0})
    if not wanted:
        return []
    overdue = f" OR due < {first_day * DAY:d}" if first_day in wanted else ""
    rows = db.execute_sql(
        f"SELECT id, due, last_review FROM card WHERE {_REVIEWING} AND {_RETIMED} "
        f"AND (due / {DAY} IN ({', '.join(map(str, wanted))}){overdue})"
    )
    return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]


@translated
def per_day(first_day: int, days: int) -> dict[int, int]:
    """Review cards due per UTC day index from `first_day` (a day number; overdue on index 0)."""
    counts = {i: 0 for i in range(days)}
    rows = db.execute_sql("SELECT day, n FROM review_due_day WHERE day < ?", (first_day + days,))
    for day, n in rows:
        index = max(0, int(day) - first_day)
        counts[index] += int(n)
    return counts


@translated
def learning_per_day(first_day: int, days: int) -> dict[int, int]:
    """Learning and relearning cards due per UTC day index from `first_day` (overdue on index 0):
    a step of minutes is a review later today, a long step one on a later day. Read through the
    (queue, due) index: the learning queue is a handful of cards."""
    counts = {i: 0 for i in range(days)}
    rows = db.execute_sql(
        f"SELECT due / {DAY}, COUNT(*) FROM card WHERE queue = {Queue.LEARNING:d} AND due < ? GROUP BY 1",
        ((first_day + days) * DAY,),
    )
    for day, n in rows:
        counts[max(0, int(day) - first_day)] += int(n)
    return counts


@translated
def projected_totals(first_day: int, days: int, days_per_stability: Sequence[float]) -> list[int]:
    """For each factor: review cards whose next review at that retention falls before the end of
    the forecast days (cards of pinned units, and cards without a stability, counted as
    scheduled). One pass over the review cards for all of them."""
    if not days_per_stability:
        return []
    end = (first_day + days) * DAY
    sums = ", ".join(
        f"SUM(CASE WHEN kept THEN due ELSE last_review + 86400 * MAX(1, CAST(ROUND(stability * ?) "
        f"AS INTEGER)) END < {end:d})"
        for _ in days_per_stability
    )
    row = db.execute_sql(
        f"SELECT {sums} FROM (SELECT due, last_review, stability, "
        f"({PINNED_CARD} OR NOT COALESCE({_RETIMED}, 0)) "
        f"AS kept FROM card WHERE {_REVIEWING})",
        tuple(float(k) for k in days_per_stability),
    ).fetchone()
    return [int(n or 0) for n in row]


@translated
def retimed_count() -> int:
    """Review cards a reschedule re-times: with a stability, of units not pinned."""
    row = db.execute_sql(
        f"SELECT COUNT(*) FROM card WHERE {_REVIEWING} AND {_RETIMED} AND NOT {PINNED_CARD}"
    ).fetchone()
    return int(row[0])
