"""Start a backup of the library into its backup folder and stop half way, until killed.

Usage: MEMORYRUSH_HOME=... python backup_midway.py   -> prints "copying <pid>" once the partial
file holds the first pages (the real backup_now, copying two pages a step).
"""

import os
import sys

from core.services import backup
from core.services.bootstrap import open_services
from core.storage import backup as backup_files

backup_files.STEP_PAGES = 2
svc = open_services(exclusive=False)


def stop(done: int, total: int) -> None:
    print(f"copying {os.getpid()}", flush=True)
    sys.stdin.read()  # until the test kills us


backup.backup_now(svc.config, progress=stop)
