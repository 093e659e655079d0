"""A scripted review loop for test_review_kill.py (run as a script; collects no tests).

    python tests/test_review_kill_worker.py HOME SEED

Opens the library through the real services and rates cards forever, printing each committed
review log id (flushed) so the parent knows what must survive a kill -9.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path


def main(home: Path, seed: int) -> None:
    from core.host.clock import FixedClock
    from core.services.bootstrap import open_services
    from core.storage.db import db

    clock = FixedClock(datetime(2026, 11, 2, 12, 0, tzinfo=UTC))
    svc = open_services(home, clock=clock)
    last = db.execute_sql("SELECT MAX(wall_at) FROM review_log").fetchone()[0]
    if last is not None:
        clock.set(datetime.fromtimestamp(last, UTC) + timedelta(minutes=1))
    svc.config = replace(svc.config, new_per_day=10_000, max_reviews_per_day=10_000)
    svc.review.rng.seed(seed)
    rng = random.Random(seed)
    print("ready", flush=True)
    while True:
        item = svc.review.next_card()
        if item is None:
            clock.advance(days=1)
            continue
        result = svc.review.answer(item.card.id, rng.choice([1, 2, 3, 3, 4]))
        print(result.review_log_id, flush=True)
        clock.advance(minutes=rng.randint(1, 900))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
