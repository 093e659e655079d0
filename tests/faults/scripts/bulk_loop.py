"""Bulk actions over the whole library, one after another, printing each as it starts and
after it returned (committed).

Usage: MEMORYRUSH_HOME=... python bulk_loop.py

Suspends every card, then unsuspends every card, then suspends... Prints "began N suspend"
before the call and "done N suspend C" after it returned with C cards changed. The fault test
kills it with SIGKILL at random moments: every card must then be suspended or none be.
"""

from core.domain.browse import BrowseFilter, BulkAction, Selection
from core.services.bootstrap import open_services

svc = open_services()
print("ready", flush=True)
step = 0
while True:
    suspended = svc.browse.count(svc.browse.parse("is:suspended").filter)
    action = BulkAction.UNSUSPEND if suspended else BulkAction.SUSPEND
    print(f"began {step} {action.value}", flush=True)
    result = svc.browse.act(action, Selection(BrowseFilter()))
    print(f"done {step} {action.value} {result.cards}", flush=True)
    step += 1
