"""`kill -9` during Browse's bulk actions on a 20,000-card library, at random moments: every
card suspended or none (one transaction), the undo journal whole (an entry's snapshot holds
exactly the cards it counts), integrity ok, and the next action and its undo work.

The actions run in tests/faults/scripts/bulk_loop.py through the real services, suspending and
unsuspending every card in turn and printing each as it begins and after it returned.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.domain.undo import Scope

from .helpers import ROOT, SCRIPTS, integrity, mr_env, query, run_mr, scalar, wait_for_line

sys.path.insert(0, str(ROOT))
from bench.library_rows import fill_library
from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.services.bootstrap import open_services

CARDS = 20_000
ROUNDS = 10


def _kill_during(home: Path, rng: random.Random) -> bool:
    """Run the loop, kill it a random moment after an action began; True when that action had
    not returned (the kill landed inside it)."""
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPTS / "bulk_loop.py")],
        env=mr_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    wait_for_line(proc, "ready", timeout=60)
    began = wait_for_line(proc, "began", timeout=60)
    time.sleep(rng.uniform(0.0, 0.6))
    proc.kill()
    proc.wait(timeout=10)
    lines = [began, *proc.stdout.read().splitlines()]
    last = [line.split()[1] for line in lines if line.startswith("began")][-1]
    return not any(line.startswith(f"done {last} ") for line in lines)


def _journal_whole(home: Path) -> bool:
    rows = [
        (n, scalar(home, "SELECT COUNT(*) FROM bulk_card WHERE journal_id = ?", (jid,)))
        for jid, n in query(home, "SELECT id, cards FROM bulk_journal WHERE undone = 0")
    ]
    # every pending bulk action has its entry in the one journal, and each entry its details
    orphans = scalar(
        home,
        "SELECT COUNT(*) FROM bulk_journal b LEFT JOIN journal j ON j.id = b.journal_id "
        "WHERE b.undone = 0 AND j.id IS NULL",
    ) + scalar(
        home,
        "SELECT COUNT(*) FROM journal j LEFT JOIN bulk_journal b ON b.journal_id = j.id "
        "WHERE j.kind = 'bulk' AND b.id IS NULL",
    )
    return orphans == 0 and all(n == snapshot for n, snapshot in rows)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_kill_9_during_a_bulk_action_leaves_all_or_nothing(home: Path) -> None:
    assert run_mr(home, "list").returncode == 0  # creates the empty library
    fill_library(home / "memoryrush.sqlite3", CARDS, now=int(time.time()))
    rng = random.Random(17)
    inside = 0
    for _ in range(ROUNDS):
        inside += _kill_during(home, rng)
        assert integrity(home) == "ok"
        suspended = scalar(home, "SELECT COUNT(*) FROM card WHERE suspended = 1")
        assert suspended in (0, CARDS), f"{suspended} of {CARDS} cards suspended: half an action"
        queued = scalar(home, "SELECT COUNT(*) FROM card WHERE queue = -1")
        assert queued == suspended  # the queue column moved with the flag
        assert _journal_whole(home)
    assert inside >= ROUNDS // 2, f"only {inside} of {ROUNDS} kills landed inside an action"
    svc = open_services(home)
    try:
        before = scalar(home, "SELECT COUNT(*) FROM card WHERE suspended = 1")
        action = BulkAction.UNSUSPEND if before else BulkAction.SUSPEND
        assert svc.browse.act(action, Selection(BrowseFilter())).cards == CARDS
        assert svc.undo.undo(Scope.BULK) is not None
        assert scalar(home, "SELECT COUNT(*) FROM card WHERE suspended = 1") == before
    finally:
        svc.close()
