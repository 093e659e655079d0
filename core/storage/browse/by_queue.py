"""Browse's sort by due, read through the queue index (queue, due) instead of an index of its own.

card_queue_due holds each queue's cards by (due, id) (the rowid ends every index key), so the
cards of all queues in (due, id) order are the merge of one range per queue: a compound SELECT of
one arm per queue, `UNION ALL ... ORDER BY` the arms' own order, which SQLite merges as it reads
(MERGE (UNION ALL) in the plan: no sort, each arm read only as far as the page needs).

Why not an index (due, id) as before (browse_card_due, dropped by schema 8): every write of a
card's due moved its entry there too, and a forget, set due, postpone or pin of 100k cards on the
1M-card bench library spent ~0.9 s CPU of its UPDATE on it (bench/bench_browse.py --bulk-trace).
"""

from __future__ import annotations

from core.domain.review import Queue
from core.storage.errors import translated

INDEX = "card_queue_due"


@translated
def merged(head: str, tail: str, terms: tuple[str, ...], direction: str, limit: int) -> str:
    """`head, terms tail ORDER BY terms LIMIT limit` as one arm per queue, merged by SQLite.
    `head` is `SELECT <columns>`, `tail` the FROM (card `c` read through INDEX) and the WHERE."""
    keys = ", ".join(f"{term} AS k{i}" for i, term in enumerate(terms))
    arms = [f"{head}, {keys} {tail} AND c.queue = {queue:d}" for queue in Queue]
    order = ", ".join(f"k{i}{direction}" for i in range(len(terms)))
    return f"{' UNION ALL '.join(arms)} ORDER BY {order} LIMIT {int(limit)}"
