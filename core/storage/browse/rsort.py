"""Browse's sort by retrievability now: a page read through the review index, never a sort of
every card.

R now = (1 + F·t/S)^D (scheduler.retrievability, t = now − last review, D < 0) falls as t/S
grows, so R's order is the order of K = (last_review − now) / S (rows.R_KEY: ascending, lowest
R first) whatever the curve's parameters (tests/test_browse_speed.py checks it against the
scheduler's own R). K moves with `now`, so no index holds it; but R_INDEX holds every reviewed
card by stability bucket (S known to an eighth of an octave: the review session's buckets,
core.storage.review.models) and last review, and inside a bucket the last review bounds K to
within 9 % (K = (last − now) / S, S in [lo, hi)). A page is read in two steps:

1. `cut`: the buckets' index rows, best bucket first (a heap of each one's bound), until `need`
   cards after the page's position are known and no unread row can beat the need-th: its K is
   the cut. Index rows only; the filter is not applied.
2. rows.py reads, through the filter, the rows with K up to the cut: `review_range` gives each
   bucket's range of last reviews that can hold them (the exact K is then compared in SQL).
   When the filter keeps fewer than a page, the cut is widened once, then the filter leads.

(The review index's t90 = last + S days bounds K only to 9 % of a day per day of S: the
cards reviewed last, first in R descending, were 60k index rows a page there.)
Cards never reviewed (K undefined: after every reviewed card ascending, by id) are read through
their own partial index (NEVER_INDEX). On the 1M-card bench the first page costs a few thousand
index rows instead of a 1M-row sort (figures in the commit and bench/bench_browse.py).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from core.storage.browse.indexes import R_INDEX
from core.storage.db import db
from core.storage.errors import translated
from core.storage.review.models import BUCKET_MAX, BUCKET_MIN, bucket_bounds

DAY = 86400
FINITE = "c.last_review IS NOT NULL AND COALESCE(c.stability, 0) > 0"  # K is defined (never NULL)


@dataclass(frozen=True, slots=True)
class Cut:
    """K up to which (ascending; from which, descending) rows are read, and whether every
    reviewed card after the position is within it (no widening can find more)."""

    k: float
    complete: bool


def _k_min(last: int, now: int, lo: float, hi: float) -> float:
    """The smallest K of a card of the bucket [lo, hi) reviewed at `last` (K = d / S, d = last − now)."""
    d = last - now
    if d <= 0:
        return d / lo if lo > 0 else (0.0 if d == 0 else -math.inf)
    return d / hi if hi != math.inf else 0.0


def _k_max(last: int, now: int, lo: float, hi: float) -> float:
    d = last - now
    if d <= 0:
        return d / hi if hi != math.inf else 0.0
    return d / lo if lo > 0 else math.inf


@translated
def review_range(k_lo: float, k_hi: float, bucket: int, now: int) -> tuple[int, int]:
    """The last_review range of the bucket's cards whose K can lie in [k_lo, k_hi] (a second
    wider each way, never narrower)."""
    lo, hi = bucket_bounds(bucket)

    def times(k: float, s: float) -> float:  # k·s, with 0·inf = 0
        return 0.0 if k == 0 else k * s

    big = float(2**62)
    first = now + times(k_lo, hi if k_lo <= 0 else lo) if math.isfinite(k_lo) else -big
    last = now + times(k_hi, lo if k_hi <= 0 else hi) if math.isfinite(k_hi) else big
    first, last = max(-big, min(big, first)), max(-big, min(big, last))
    return math.floor(first) - 1, math.ceil(last) + 1


@translated
def key(last_review: int, stability: float, now: int) -> float:
    """rows.R_KEY of a reviewed card, computed as SQLite computes it."""
    return (last_review - now) * 1.0 / stability


@translated
def buckets() -> list[int]:
    """Every stability bucket of reviewed cards: one seek each (a loose scan of R_INDEX)."""
    sql = (
        f"WITH RECURSIVE b(x) AS (SELECT MIN(sbucket) FROM card INDEXED BY {R_INDEX} WHERE sbucket >= {BUCKET_MIN} "
        f"UNION ALL SELECT (SELECT MIN(sbucket) FROM card INDEXED BY {R_INDEX} WHERE sbucket > b.x) FROM b "
        f"WHERE b.x IS NOT NULL) SELECT x FROM b WHERE x IS NOT NULL AND x <= {BUCKET_MAX}"
    )
    return [int(b) for (b,) in db.execute_sql(sql).fetchall()]


# A bucket's index rows in K order ... nearly: by last review (then S, id), from the page's
# position or the last row read; K as R_KEY computes it.
_STREAM_SQL = (
    f"SELECT (last_review - :now) * 1.0 / stability, last_review, stability, id FROM card INDEXED BY {R_INDEX} "
    "WHERE sbucket = :b AND last_review BETWEEN :first AND :last AND stability > 0 {more} "
    "ORDER BY last_review {d}, stability {d}, id {d} LIMIT :n"
)


@translated
def cut(now: int, descending: bool, after: tuple[float, float] | None, need: int, pairs: list[int]) -> Cut:
    """The K of the `need`-th reviewed card after `after` = (K, card id) in the sort's order
    (ties by id, both ways with the sort): a threshold walk over the buckets, best bound first,
    each bucket read on from its last row in chunks that double."""
    sign = -1.0 if descending else 1.0  # rank = (sign·K, sign·id), smaller first
    start = (sign * after[0], sign * after[1]) if after else (-math.inf, -math.inf)
    k_from = after[0] if after else -sign * math.inf
    d, op = ("DESC", "<") if descending else ("", ">")
    first_sql = _STREAM_SQL.format(d=d, more="")
    more_sql = _STREAM_SQL.format(d=d, more=f"AND (last_review, stability, id) {op} (:lr, :s, :id)")
    cur = db.cursor()
    worst: list[tuple[float, float]] = []  # the `need` best ranks, negated: the worst kept on top
    frontier: list[
        tuple[float, int, int, tuple[int, float, int]]
    ] = []  # (best rank of an unread row, bucket, chunk, last row)
    chunk = max(4, -(-2 * need // max(1, len(pairs))))

    def read(bucket: int, n: int, last_row: tuple[int, float, int] | None) -> None:
        lo, hi = bucket_bounds(bucket)
        first, last = review_range(*((-math.inf, k_from) if descending else (k_from, math.inf)), bucket, now)
        params: dict[str, float] = {"now": now, "b": bucket, "first": first, "last": last, "n": n}
        if last_row is not None:
            params.update(lr=last_row[0], s=last_row[1], id=last_row[2])
        rows = cur.execute(more_sql if last_row else first_sql, params).fetchall()
        for k, _, _, cid in rows:
            rank = (sign * k, sign * cid)
            if rank <= start:
                continue  # at or before the page's position
            if len(worst) < need:
                heapq.heappush(worst, (-rank[0], -rank[1]))
            elif rank < (-worst[0][0], -worst[0][1]):
                heapq.heapreplace(worst, (-rank[0], -rank[1]))
        if len(rows) == n:  # more rows: the best rank the next one can have
            _, lr, s, cid = rows[-1]
            bound = -_k_max(lr, now, lo, hi) if descending else _k_min(lr, now, lo, hi)
            heapq.heappush(frontier, (bound, bucket, n, (lr, s, cid)))

    for bucket in pairs:
        read(bucket, chunk, None)
    while frontier:
        bound, bucket, n, last_row = heapq.heappop(frontier)
        if len(worst) >= need and bound > -worst[0][0]:
            break  # no unread row of any bucket can beat the need-th kept
        read(bucket, 2 * n, last_row)
    if len(worst) < need:
        return Cut(-sign * math.inf, True)
    return Cut(-worst[0][0] * sign, False)
