"""Read-only aggregate queries over cards and review logs for the Stats screen.

Retrievability is computed in SQL with fsrs' curve R = (1 + F·days/S)^D (fractional days),
so a million cards never become Python objects.
"""

from __future__ import annotations

from typing import Any

from core.domain.review import Queue
from core.storage.db import db
from core.storage.errors import translated


def _rows(sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    return list(db.execute_sql(sql, params).fetchall())


_R = "pow(1.0 + :factor * MAX(0, (:now - c.last_review) / 86400.0) / c.stability, :decay)"


@translated
def counts_by_queue() -> dict[int, int]:
    return {int(q): int(n) for q, n in _rows("SELECT queue, COUNT(*) FROM card GROUP BY queue", {})}


@translated
def leech_count() -> int:
    return int(_rows("SELECT COUNT(*) FROM card WHERE leech = 1", {})[0][0])


@translated
def average_retrievability(now: int, decay: float, factor: float) -> float | None:
    sql = f"SELECT AVG({_R}) FROM card c WHERE c.active = 1 AND c.last_review IS NOT NULL AND c.stability > 0"
    value = _rows(sql, {"now": now, "decay": decay, "factor": factor})[0][0]
    return None if value is None else float(value)


@translated
def card_retrievability(
    now: int, decay: float, factor: float, limit: int, offset: int = 0
) -> list[tuple[int, int, float]]:
    """(card id, unit id, R now) of active reviewed cards, weakest first."""
    sql = (
        f"SELECT c.id, c.unit_id, {_R} AS r FROM card c WHERE c.active = 1 AND c.last_review IS NOT NULL "
        "AND c.stability > 0 ORDER BY r, c.id LIMIT :limit OFFSET :offset"
    )
    return [
        (int(a), int(b), float(r))
        for a, b, r in _rows(
            sql, {"now": now, "decay": decay, "factor": factor, "limit": limit, "offset": offset}
        )
    ]


@translated
def unit_retrievability(
    now: int, decay: float, factor: float, limit: int
) -> list[tuple[int, str, float | None, int, bool]]:
    """(unit id, content, mean R of its reviewed cards or None, cards, pinned), weakest first."""
    sql = (
        f"SELECT u.id, u.content, AVG(CASE WHEN c.last_review IS NOT NULL AND c.stability > 0 THEN {_R} END) AS r, "
        "COUNT(c.id), u.pinned FROM card c JOIN unit u ON u.id = c.unit_id WHERE c.active = 1 "
        "GROUP BY u.id ORDER BY r IS NULL, r, u.id LIMIT :limit"
    )
    return [
        (int(i), str(t), None if r is None else float(r), int(n), bool(p))
        for i, t, r, n, p in _rows(sql, {"now": now, "decay": decay, "factor": factor, "limit": limit})
    ]


@translated
def due_per_day(day_start: int, days: int) -> dict[int, int]:
    """Learning + review cards due per day offset from `day_start` (overdue counted on day 0)."""
    sql = (
        "SELECT MAX(0, (due - :start) / 86400) AS d, COUNT(*) FROM card "
        f"WHERE queue IN ({Queue.LEARNING:d}, {Queue.REVIEW:d}) AND due < :end GROUP BY d"
    )
    return {int(d): int(n) for d, n in _rows(sql, {"start": day_start, "end": day_start + days * 86400})}


@translated
def reviews_per_day(day_start: int, days: int) -> dict[int, int]:
    """Answers per day offset (0 = today, -1 = yesterday ...) over the last `days` days."""
    sql = (
        "SELECT CAST(floor((reviewed_at - :start) / 86400.0) AS INTEGER) AS d, COUNT(*) FROM review_log "
        "WHERE reviewed_at >= :since GROUP BY d"
    )
    return {
        int(d): int(n) for d, n in _rows(sql, {"start": day_start, "since": day_start - (days - 1) * 86400})
    }


@translated
def true_retention(since: int) -> tuple[int, int]:
    """(review-state answers, of which passed) since `since`."""
    sql = "SELECT COUNT(*), COALESCE(SUM(rating > 1), 0) FROM review_log WHERE state_before = 2 AND reviewed_at >= :since"
    total, passed = _rows(sql, {"since": since})[0]
    return int(total), int(passed)


@translated
def active_day_offsets(day_start: int, days: int = 3650) -> list[int]:
    """Day offsets (0 = today, negative = past) with at least one answer, newest first."""
    sql = (
        "SELECT DISTINCT CAST(floor((reviewed_at - :start) / 86400.0) AS INTEGER) AS d FROM review_log "
        "WHERE reviewed_at >= :since ORDER BY d DESC"
    )
    return [int(d) for (d,) in _rows(sql, {"start": day_start, "since": day_start - days * 86400})]


@translated
def total_reviews() -> int:
    return int(_rows("SELECT COUNT(*) FROM review_log", {})[0][0])
