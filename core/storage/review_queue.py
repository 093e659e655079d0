"""Session reads: which cards are due, in what order, and how loaded the coming days are.

Everything here goes through an index: no query reads all cards.
"""

from __future__ import annotations

import math
from typing import Any

from core.storage.db import db
from core.storage.review_models import bucket_bounds


def _exec(sql: str, params: Any = ()) -> Any:
    return db.execute_sql(sql, params)


def due_review_candidates(day_end: int, now: int, limit: int) -> list[tuple[int, int]]:
    """(card id, unit id) of review cards due before `day_end`, lowest retrievability first.

    R = (1 + F·t/S)^D falls as k = t/S grows, t = now - last_review in (fractional) days;
    ties by id. FSRS makes
    R = 0.9 at t = S, so with t90 = last_review + S days, k = 1 + (now - t90)/S.
    Cards sit in eighth-octave stability buckets; inside a bucket the covering index yields
    them by t90, and no later card can beat 1 + (now - t90_last)/S_min. One compound query
    fetches a few rows per bucket; only buckets whose bound still beats the current limit-th
    best are read further. So a session reads a small multiple of `limit` index rows, never
    every due card.
    """
    if limit <= 0:
        return []
    best: list[tuple[float, int, int]] = []  # (-k·86400, card id, unit id): ascending = lowest R first
    with db.atomic():  # one consistent read snapshot across rounds
        buckets = _review_buckets()
        offset = dict.fromkeys(buckets, 0)
        chunk = max(4, -(-2 * limit // max(1, len(buckets))))
        cur = db.cursor()
        while buckets:
            got: dict[int, int] = {}
            last_t90: dict[int, int] = {}
            for b in buckets:
                n = last = 0
                for cid, unit, lr, s, t in cur.execute(_BUCKET_SQL, (b, day_end, chunk, offset[b])):
                    best.append(((lr - now) / s if s else -math.inf, cid, unit))
                    n, last = n + 1, t
                got[b], last_t90[b] = n, last
            best.sort()
            del best[limit:]
            threshold = -best[-1][0] / 86400 if len(best) >= limit else -math.inf
            still = []
            for b in buckets:
                offset[b] += got[b]
                if got[b] < chunk:
                    continue  # bucket exhausted
                lo, hi = bucket_bounds(b)
                ahead = (now - last_t90[b]) / 86400
                bound = 1 + (ahead / lo if ahead >= 0 and lo > 0 else math.inf if ahead >= 0 else ahead / hi)
                if bound >= threshold:
                    still.append(b)
            buckets, chunk = still, chunk * 2
    return [(cid, unit) for _, cid, unit in best]


def _review_buckets() -> list[int]:
    """Non-empty stability buckets of the review queue: one index seek per bucket (loose scan)."""
    rows = _exec(
        "WITH RECURSIVE b(x) AS (SELECT MIN(sbucket) FROM card WHERE queue = 2 "
        "UNION ALL SELECT (SELECT MIN(sbucket) FROM card WHERE queue = 2 AND sbucket > b.x) FROM b "
        "WHERE b.x IS NOT NULL) SELECT x FROM b WHERE x IS NOT NULL"
    ).fetchall()
    return [int(x) for (x,) in rows]


_BUCKET_SQL = (
    "SELECT id, unit_id, last_review, stability, t90 FROM card "
    "WHERE queue = 2 AND sbucket = ? AND due < ? ORDER BY t90 LIMIT ? OFFSET ?"
)


def new_candidates(limit: int) -> list[tuple[int, int]]:
    return _exec("SELECT id, unit_id FROM card WHERE queue = 0 ORDER BY due, id LIMIT ?", (limit,)).fetchall()


def next_learning(until: int) -> tuple[int, int] | None:
    """The learning card due first, if due by `until`: (card id, due)."""
    return _exec(
        "SELECT id, due FROM card WHERE queue = 1 AND due <= ? ORDER BY due, id LIMIT 1", (until,)
    ).fetchone()


def count_queue(queue: int, due_before: int | None = None) -> int:
    if due_before is None:
        return int(_exec("SELECT COUNT(*) FROM card WHERE queue = ?", (queue,)).fetchone()[0])
    return int(
        _exec("SELECT COUNT(*) FROM card WHERE queue = ? AND due < ?", (queue, due_before)).fetchone()[0]
    )


def done_since(start: int) -> tuple[int, int, int]:
    """(new cards introduced, review-state cards answered, all answers) since `start`."""
    t = _exec(
        "SELECT COALESCE(SUM(state_before = 0), 0), COALESCE(SUM(state_before = 2), 0), COUNT(*) "
        "FROM review_log WHERE reviewed_at >= ?",
        (start,),
    ).fetchone()
    return int(t[0]), int(t[1]), int(t[2])


def due_load(base: int, lo: int, hi: int) -> list[int]:
    """Review cards due on each UTC day from the day of base+lo days to that of base+hi days
    (read from the trigger-kept review_due_day counter)."""
    first = base // 86400 + lo
    rows = _exec(
        "SELECT day, n FROM review_due_day WHERE day BETWEEN ? AND ?", (first, first + hi - lo)
    ).fetchall()
    counts = dict(rows)
    return [int(counts.get(first + i, 0)) for i in range(hi - lo + 1)]


def overdue_reviews(before: int) -> list[tuple[int, float, int]]:
    """(card id, stability, last_review) of review cards due before `before`."""
    return _exec(
        "SELECT id, stability, last_review FROM card WHERE queue = 2 AND due < ? ORDER BY due", (before,)
    ).fetchall()
