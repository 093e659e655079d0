"""kill -9 a scripted review loop at random points, again and again: the database stays sound,
no committed review is lost or doubled, and every card's reps equals its review-log count."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from test_review_support import add_units, q

from core.host.clock import FixedClock
from core.services.bootstrap import open_services

WORKER = Path(__file__).with_name("test_review_kill_worker.py")
ROOT = Path(__file__).resolve().parent.parent
KILLS = 20


def test_kill_9_during_reviews_loses_and_doubles_nothing(data_home: Path, clock: FixedClock) -> None:
    svc = open_services(data_home, clock=clock)
    add_units(40, 2, now=int(clock.now().timestamp()))
    svc.close()
    rng = random.Random(99)
    printed: list[int] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for run in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(data_home), str(run)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(proc.pid, signal.SIGKILL)
        # read through the same buffered reader as the "ready" line (communicate() would skip
        # whatever that readline already buffered)
        out = proc.stdout.read()
        err = proc.stderr.read() if proc.stderr else ""
        assert proc.wait(timeout=30) == -signal.SIGKILL, err
        printed += [int(line) for line in out.split()]

    svc = open_services(data_home, clock=clock)  # the lock died with the worker
    try:
        assert q("PRAGMA integrity_check") == [("ok",)]
        assert q("PRAGMA foreign_key_check") == []
        logs = [int(r[0]) for r in q("SELECT id FROM review_log")]  # type: ignore[call-overload]
        assert len(printed) > KILLS  # the loop really ran
        assert len(set(printed)) == len(printed)
        assert set(printed) <= set(logs)  # nothing reported as done was lost
        assert len(logs) - len(printed) <= KILLS  # at most one commit per kill was not yet printed
        assert (
            q(
                "SELECT c.id, c.reps, COUNT(l.id) FROM card c LEFT JOIN review_log l ON l.card_id = c.id "
                "GROUP BY c.id HAVING c.reps != COUNT(l.id)"
            )
            == []
        )
        # the latest ratings each left their undo entry (written in the same transaction)
        recent = q(
            "SELECT COUNT(*) FROM review_log l LEFT JOIN undo_entry u ON u.review_log_id = l.id "
            "WHERE u.id IS NULL AND l.id > (SELECT MAX(id) - 100 FROM review_log)"
        )
        assert recent == [(0,)]
        # ... and its entry in the one journal, and no entry outlived its details (one transaction)
        assert q(
            "SELECT COUNT(*) FROM undo_entry u LEFT JOIN journal j ON j.id = u.journal_id WHERE j.id IS NULL"
        ) == [(0,)]
        assert q(
            "SELECT COUNT(*) FROM journal j LEFT JOIN undo_entry u ON u.journal_id = j.id "
            "WHERE j.kind = 'review' AND u.id IS NULL"
        ) == [(0,)]
        # the library still works after the kills: a day after every card has come due, the
        # session shows a card and takes its answer, once (the next day alone may have none: how
        # many cards the killed loop answered, and how far out it sent them, depends on the load)
        last = max(int(r[0]) for r in q("SELECT reviewed_at FROM review_log"))  # type: ignore[call-overload]
        latest_due = max(int(r[0]) for r in q("SELECT due FROM card"))  # type: ignore[call-overload]
        clock.set(datetime.fromtimestamp(max(last, latest_due), UTC) + timedelta(days=1))
        svc.config = replace(svc.config, new_per_day=10_000, max_reviews_per_day=10_000)
        item = svc.review.next_card()
        assert item is not None, svc.review.summary()
        result = svc.review.answer(item.card.id, 3)
        assert result.review_log_id > max(logs)
        assert q("SELECT COUNT(*) FROM review_log") == [(len(logs) + 1,)]
        assert q("SELECT reps FROM card WHERE id = ?", item.card.id) == [(item.card.reps + 1,)]
    finally:
        svc.close()
