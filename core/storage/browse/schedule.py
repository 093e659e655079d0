"""Schedule tools' reads: review cards due soon, cards due per day, and each day's count at
another retention (S x days_per_stability days after the last review, in SQL over every review
card: ~0.4 s a retention on a million cards)."""

from __future__ import annotations

from core.domain.review import Queue
from core.storage.db import db
from core.storage.errors import translated

DAY = 86400
_REVIEWING = f"queue = {Queue.REVIEW:d}"


@translated
def due_before(until: int) -> list[tuple[int, int, int, float]]:
    """(card id, due, last review, stability) of review cards due before `until` (overdue too)."""
    rows = db.execute_sql(
        f"SELECT id, due, last_review, stability FROM card WHERE {_REVIEWING} AND due < ? "
        "AND last_review IS NOT NULL AND stability > 0 ORDER BY due, id",
        (until,),
    )
    return [(int(r[0]), int(r[1]), int(r[2]), float(r[3])) for r in rows]


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
def projected_total(first_day: int, days: int, days_per_stability: float) -> int:
    """Review cards (of units not pinned) whose next review at another retention falls before
    the end of the forecast days; pinned units keep their own retention (their cards counted
    as scheduled)."""
    row = db.execute_sql(
        f"SELECT COUNT(*) FROM card c JOIN unit u ON u.id = c.unit_id WHERE c.{_REVIEWING} AND ("
        "CASE WHEN u.pinned = 1 OR c.last_review IS NULL OR NOT c.stability > 0 THEN c.due "
        "ELSE c.last_review + 86400 * MAX(1, CAST(ROUND(c.stability * :k) AS INTEGER)) END) < :end",
        {"k": days_per_stability, "end": (first_day + days) * DAY},
    ).fetchone()
    return int(row[0])


@translated
def retimed_count() -> int:
    row = db.execute_sql(
        f"SELECT COUNT(*) FROM card c JOIN unit u ON u.id = c.unit_id WHERE c.{_REVIEWING} AND u.pinned = 0 "
        "AND c.last_review IS NOT NULL AND c.stability > 0"
    ).fetchone()
    return int(row[0])
