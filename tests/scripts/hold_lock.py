"""Hold the single-instance lock of $MEMORYRUSH_HOME until stdin closes (or a kill).

Prints "locked <pid>" once the lock is held. Used by tests/test_lock.py and test_cli_library.py.
"""

import os
import sys

from core.host import paths
from core.host.lock import InstanceLock

with InstanceLock(paths.lock_path()):
    print(f"locked {os.getpid()}", flush=True)
    sys.stdin.read()
