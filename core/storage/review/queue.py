"""Session reads: which cards are due, in what order, and how loaded the coming days are.

Everything here goes through an index: no query reads all cards.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from typing import Any

from core.domain.review import Queue
from core.storage.db import db
from core.storage.errors import translated
from core.storage.review.models import bucket_bounds


def _exec(sql: str, params: Any = ()) -> Any:
    return db.execute_sql(sql, params)


@translated
def due_review_candidates(day_end: int, now: int, limit: int) -> list[tuple[int, int]]:
    """(card id, unit id) of review cards due before `day_end`, lowest retrievability first.

    R = (1 + F·t/S)^D falls as k = t/S grows (t = now - last_review, fractional days; ties by
    id). FSRS makes R = 0.9 at t = S, so with t90 = last_review + S days, k = 1 + (now - t90)/S.
    Cards sit in eighth-octave stability buckets [lo, hi); inside a bucket the covering index
    yields them by t90. Round 1 reads a few rows of every bucket, which gives a threshold T
    (the limit-th best k so far). A card can only beat T if t90 <= now - (T - 1)·S_bound, so
    round 2 asks each bucket, most promising first, for just that index range (recomputing T
    as it improves). A session reads a small multiple of `limit` index rows, never every due card.
    """
    if limit <= 0:
        return []
    best = _Best(limit, now)
    with db.atomic():  # one consistent read snapshot across both rounds
        buckets = _review_buckets()
        chunk = max(4, -(-2 * limit // max(1, len(buckets))))
        cur = db.cursor()
        pending: list[
            tuple[float, int, int]
        ] = []  # (-bound, bucket, last t90 read) of buckets with rows left
        seen: set[int] = set()
        for b in buckets:
            rows = cur.execute(_FIRST_SQL, (b, day_end, chunk)).fetchall()
            seen.update(r[0] for r in rows)
            n, last = best.offer(rows)
            if n == chunk:
                lo, hi = bucket_bounds(b)
                ahead = (now - last) / 86400
                bound = 1 + (ahead / lo if ahead >= 0 and lo > 0 else math.inf if ahead >= 0 else ahead / hi)
                pending.append((-bound, b, last))
        pending.sort()
        for neg_bound, b, last in pending:
            limit_k = best.threshold()
            if -neg_bound < limit_k:
                break  # this bucket and every later one cannot beat the threshold
            lo, hi = bucket_bounds(b)
            # rounded so that the cut only ever lets more rows through
            if limit_k == -math.inf or (limit_k < 1 and hi == math.inf):
                cut, floor_k = 2**62, -1e18
            else:
                cut = now - math.floor((limit_k - 1) * (lo if limit_k >= 1 else hi) * 86400)
                floor_k = (limit_k - 1e-9) * 86400  # SQLite drops rows that cannot beat it; offer() decides
            rows = cur.execute(_REST_SQL, (b, day_end, last, cut + 1, now, floor_k)).fetchall()
            best.offer(r for r in rows if r[0] not in seen)
    return best.ranked()


class _Best:
    """The `limit` best candidates so far: a min-heap of (k, -card id, unit id), worst on top."""

    def __init__(self, limit: int, now: int) -> None:
        self.limit, self.now = limit, now
        self.heap: list[tuple[float, int, int]] = []

    def offer(self, rows: Iterable[tuple[int, int, int, float, int]]) -> tuple[int, int]:
        """Keep what beats the worst kept; returns (rows read, the last t90 read)."""
        n = last = 0
        for cid, unit, lr, s, t in rows:
            item = ((self.now - lr) / s if s else math.inf, -cid, unit)
            if len(self.heap) < self.limit:
                heapq.heappush(self.heap, item)
            elif item > self.heap[0]:
                heapq.heapreplace(self.heap, item)
            n, last = n + 1, t
        return n, last

    def threshold(self) -> float:
        """The k a card must beat to get in, in days (-inf until `limit` are kept)."""
        return self.heap[0][0] / 86400 if len(self.heap) >= self.limit else -math.inf

    def ranked(self) -> list[tuple[int, int]]:
        return [(-neg_id, unit) for _, neg_id, unit in sorted(self.heap, key=lambda x: (-x[0], -x[1]))]


def _review_buckets() -> list[int]:
    """Non-empty stability buckets of the review queue: one index seek per bucket (loose scan)."""
    return [int(x) for (x,) in _exec(_BUCKETS_SQL).fetchall()]


# The session's reads say `queue = 2` as the partial session index does (models.SESSION_INDEX),
# so SQLite reads that index, covering (tests/test_queue_index_migration.py checks the plans).
_BUCKETS_SQL = (
    f"WITH RECURSIVE b(x) AS (SELECT MIN(sbucket) FROM card WHERE queue = {Queue.REVIEW:d} "
    f"UNION ALL SELECT (SELECT MIN(sbucket) FROM card WHERE queue = {Queue.REVIEW:d} AND sbucket > b.x) FROM b "
    "WHERE b.x IS NOT NULL) SELECT x FROM b WHERE x IS NOT NULL"
)
_FIRST_SQL = (
    "SELECT id, unit_id, last_review, stability, t90 FROM card "
    f"WHERE queue = {Queue.REVIEW:d} AND sbucket = ? AND due < ? ORDER BY t90 LIMIT ?"
)
# the rest of a bucket from the last t90 read up to the cut, keeping only cards whose exact
# k = (now - last_review) / stability reaches the threshold (rows read in round 1 are skipped)
_REST_SQL = (
    "SELECT id, unit_id, last_review, stability, t90 FROM card "
    f"WHERE queue = {Queue.REVIEW:d} AND sbucket = ? AND due < ? AND t90 >= ? AND t90 < ? "
    "AND (? - last_review) >= ? * stability"
)


@translated
def new_candidates(limit: int) -> list[tuple[int, int]]:
    sql = f"SELECT id, unit_id FROM card WHERE queue = {Queue.NEW:d} ORDER BY due, id LIMIT ?"
    return _exec(sql, (limit,)).fetchall()


@translated
def next_learning(until: int) -> tuple[int, int] | None:
    """The learning card due first, if due by `until`: (card id, due)."""
    return _exec(
        f"SELECT id, due FROM card WHERE queue = {Queue.LEARNING:d} AND due <= ? ORDER BY due, id LIMIT 1",
        (until,),
    ).fetchone()


@translated
def count_queue(queue: Queue, due_before: int | None = None) -> int:
    if due_before is None:
        return int(_exec("SELECT COUNT(*) FROM card WHERE queue = ?", (int(queue),)).fetchone()[0])
    return int(
        _exec("SELECT COUNT(*) FROM card WHERE queue = ? AND due < ?", (int(queue), due_before)).fetchone()[0]
    )


@translated
def done_since(start: int) -> tuple[int, int, int]:
    """(new cards introduced, review-state cards answered, all answers) since `start`."""
    t = _exec(
        "SELECT COALESCE(SUM(state_before = 0), 0), COALESCE(SUM(state_before = 2), 0), COUNT(*) "
        "FROM review_log WHERE reviewed_at >= ?",
        (start,),
    ).fetchone()
    return int(t[0]), int(t[1]), int(t[2])


@translated
def due_load(base: int, lo: int, hi: int) -> list[int]:
    """Review cards due on each UTC day from the day of base+lo days to that of base+hi days
    (read from the trigger-kept review_due_day counter)."""
    first = base // 86400 + lo
    rows = _exec(
        "SELECT day, n FROM review_due_day WHERE day BETWEEN ? AND ?", (first, first + hi - lo)
    ).fetchall()
    counts = dict(rows)
    return [int(counts.get(first + i, 0)) for i in range(hi - lo + 1)]


@translated
def overdue_reviews(before: int) -> list[tuple[int, float, int]]:
    """(card id, stability, last_review) of review cards due before `before`."""
    return _exec(
        f"SELECT id, stability, last_review FROM card WHERE queue = {Queue.REVIEW:d} AND due < ? ORDER BY due",
        (before,),
    ).fetchall()
