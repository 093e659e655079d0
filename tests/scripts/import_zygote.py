"""A warmed-up parent that forks one `memoryrush import`-equivalent child per request.

The kill -9 test sends `go FOLDER` on stdin; this process forks a child that opens the library
of $MEMORYRUSH_HOME exactly as the CLI does (lock, database, services) and imports FOLDER with
the placeholder extractor. The parent prints `child <pid>`, waits for the child and prints
`exit <code>` (negative: killed by that signal). Forking from warm imports makes each round
cost the import itself, not Python start-up, so many kills fit in a few seconds.
"""

import os
import sys
from pathlib import Path

import core.extraction.placeholder  # noqa: F401  (warm: the child must not spend time importing)
from core.services.bootstrap import open_services

print("ready", flush=True)
for line in sys.stdin:
    command, _, argument = line.strip().partition(" ")
    if command != "go":
        break
    pid = os.fork()
    if pid == 0:  # the child: import, then leave without running the parent's clean-up
        code = 0
        try:
            services = open_services()
            try:
                services.library.import_paths([Path(argument)], extractor="placeholder")
            finally:
                services.close()
        except BaseException:
            code = 3
        os._exit(code)
    print(f"child {pid}", flush=True)
    _, status = os.waitpid(pid, 0)
    print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
