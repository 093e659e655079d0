"""Open the real app (the `memoryrush` console script's path) with one fault planted, to see the
exit status a crash leaves. Usage: MEMORYRUSH_HOME=... python crash_app.py screen|input|worker [memoryrush arguments]

screen: the Home screen raises while it is built (Textual's unhandled-exception path);
input:  the terminal input thread dies (Textual panics; a stray byte did this before);
worker: a worker that may stop the app (exit_on_error) fails.
"""

import sys

from textual import work

import tui.launch
from tui.driver import GuardedDriver
from tui.screens.home import HomeScreen

mode = sys.argv[1]
if mode == "screen":

    def broken_compose(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("planted: the screen cannot be built")

    HomeScreen.compose = broken_compose  # type: ignore[method-assign]
elif mode == "input":

    def dead_input(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("planted: the input thread died")

    GuardedDriver.run_input_thread = dead_input  # type: ignore[method-assign]
elif mode == "worker":

    @work(thread=True, name="planted")
    def failing(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("planted: a worker failed")

    HomeScreen.failing = failing  # type: ignore[attr-defined]
    HomeScreen.on_mount = lambda self: self.failing()  # type: ignore[method-assign]
sys.argv = ["memoryrush", *sys.argv[2:]]  # e.g. `review`: through the click command line
tui.launch.main()
