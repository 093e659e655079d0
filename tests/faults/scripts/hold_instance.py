"""Open the library the way the app does (single-instance lock held) and wait until killed.

Usage: MEMORYRUSH_HOME=... python hold_instance.py   -> prints "ready <pid>".
"""

import os
import sys

from core.services.bootstrap import open_services

svc = open_services()
print(f"ready {os.getpid()}", flush=True)
sys.stdin.read()
svc.close()
