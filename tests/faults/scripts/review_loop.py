"""A scripted review session through the real services, printing every committed step.

Usage: MEMORYRUSH_HOME=... python review_loop.py START_EPOCH SEED [MAX_ANSWERS]

The clock starts at START_EPOCH and moves 15 minutes per answer (so learning cards come due).
After each answer returns (its transaction committed) it prints "answered <card> <log id>";
about one step in eight is an undo, printed as "undo <log id>" after it returns. The fault
test kills this process with SIGKILL at random moments and compares these lines with the
database.
"""

import random
import sys
from datetime import UTC, datetime

from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import open_services
from core.storage.review.models import UndoEntry

start, seed = int(sys.argv[1]), int(sys.argv[2])
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 10**9
clock = FixedClock(datetime.fromtimestamp(start, UTC))
rng = random.Random(seed)
svc = open_services(clock=clock)
svc.review.start_session()
print("ready", flush=True)
answered = 0
while answered < limit:
    if rng.random() < 0.125 and svc.undo.can_undo(Scope.REVIEW):
        last = UndoEntry.select().order_by(UndoEntry.id.desc()).first()
        log_id = last.review_log_id if last is not None else None
        svc.undo.undo(Scope.REVIEW)
        print(f"undo {log_id}", flush=True)
        continue
    item = svc.review.next_card()
    if item is None:
        clock.advance(days=1)
        svc.review.start_session()
        continue
    result = svc.review.answer(item.card.id, rng.choice([1, 2, 3, 3, 3, 4]))
    print(f"answered {item.card.id} {result.review_log_id}", flush=True)
    answered += 1
    clock.advance(minutes=15)
svc.close()
print("done", flush=True)
