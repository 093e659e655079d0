"""Quitting always ends the process: a deadline after the app is asked to quit.

Once the reader quits (ctrl+q) or the process gets SIGTERM or SIGHUP (the terminal closed), the
app has QUIT_DEADLINE_S to end. A worker waiting on the UI thread (`call_from_thread`) that
never runs again, a terminal gone from under the output thread, or a checkpoint that waits,
kept the process alive after the attack's Browse -> a -> 100 x "x X" -> ctrl+q with the terminal
closed (2 of 3 tries), holding the instance lock: every later `memoryrush` said "already
running". Past the deadline the process leaves with `os._exit`: every write is one SQLite
transaction, so what had not committed is rolled back at the next open (as after kill -9), and
the kernel releases the instance lock (flock) with the process.

Armed only by `tui.process.run` (the real process), never in tests that run the app in-process.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

QUIT_DEADLINE_S = 8.0
# What leaving the app gives the terminal back, when Textual could not: the main screen, the
# cursor, mouse reporting, focus events and bracketed paste off.
_GIVE_BACK = "\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l"


def _terminal_modes() -> list[Any] | None:
    """The terminal's modes before the app set them (restored by a forced exit)."""
    try:
        import termios

        return termios.tcgetattr(sys.__stdin__.fileno()) if sys.__stdin__ and sys.__stdin__.isatty() else None
    except (ImportError, OSError, ValueError, AttributeError):
        return None


def _give_back(modes: list[Any] | None) -> None:
    try:
        os.write(2, _GIVE_BACK.encode())
        if modes is not None and sys.__stdin__ is not None:
            import termios

            termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, modes)
    except (ImportError, OSError, ValueError):  # the terminal is gone
        pass


def _leave_even_in_the_background() -> None:
    """From the quit on, nothing stops the process again. Stopped from outside (SIGSTOP), sent
    SIGTERM, then SIGCONT, the app is a background job (the shell took the terminal meanwhile):
    Textual's SIGCONT handler takes the terminal back, and a background process that touches its
    terminal is stopped by SIGTTOU or SIGTTIN, so it stayed stopped holding the instance lock
    (re-attack, issue 34 item 9). Python runs the handlers of signals that came together in
    signal order, SIGTERM's (this) before SIGCONT's: SIGCONT goes back to its default (continue)
    and SIGTTOU and SIGTTIN are ignored, so giving the terminal back goes through or fails, and
    the process ends. Only the main thread may set handlers; elsewhere this does nothing."""
    import signal

    for name, action in (
        ("SIGCONT", signal.SIG_DFL),
        ("SIGTTOU", signal.SIG_IGN),
        ("SIGTTIN", signal.SIG_IGN),
    ):
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                signal.signal(sig, action)
            except ValueError:  # not the main thread
                return


class QuitDeadline:
    """`start(code)` once the app is asked to end: the process ends within `seconds`, its exit
    status `code` (a quit 0, a signal 128 + its number)."""

    def __init__(self, seconds: float = QUIT_DEADLINE_S) -> None:
        self.seconds = seconds
        self._started = threading.Event()
        self._modes = _terminal_modes()  # made before the app takes the terminal

    @property
    def started(self) -> bool:
        return self._started.is_set()

    def start(self, code: int) -> None:
        if self._started.is_set():
            return
        self._started.set()
        _leave_even_in_the_background()
        threading.Thread(target=self._end, args=(code,), name="quit-deadline", daemon=True).start()

    def _end(self, code: int) -> None:
        time.sleep(self.seconds)
        _give_back(self._modes)
        message = (
            f"memoryrush: still busy {self.seconds:.0f} s after quitting; left without the work in "
            "progress (nothing half-saved: an unfinished write is rolled back)\n"
        )
        try:
            os.write(2, message.encode())
        except OSError:  # the terminal is gone
            pass
        os._exit(code)
