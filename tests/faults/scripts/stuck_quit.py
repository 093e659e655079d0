"""Open the real app (the `memoryrush` console script's path) with a hang planted, to see that
quitting still ends the process. Usage: MEMORYRUSH_HOME=... python stuck_quit.py close|loop

close: closing the library never returns (a checkpoint or a worker that never finishes);
loop:  the UI thread is stuck (a callback that never returns) once the first frame is shown.
"""

import sys
import threading
import time

import core.services.bootstrap
import tui.launch
from tui.app import MemoryRushApp

mode = sys.argv.pop(1)
if mode == "close":

    def never(self):  # type: ignore[no-untyped-def]
        threading.Event().wait()

    core.services.bootstrap.Services.close = never  # type: ignore[method-assign]
elif mode == "loop":
    first = MemoryRushApp.on_ready

    def stuck_after(self):  # type: ignore[no-untyped-def]
        first(self)
        self.set_timer(0.5, lambda: time.sleep(3600))

    MemoryRushApp.on_ready = stuck_after  # type: ignore[method-assign]

tui.launch.main()
