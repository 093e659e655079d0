"""Bulk work at background priority: a backup's copy yields the CPU to the reader's keys.

A backup copies the whole library at full speed (a few seconds of a core for a 1M-card library).
On a busy machine the app's answers during it waited for a core: rating -> next card painted at
17 ms at the median instead of 8 (bench/bench_tui.py --only backup, 2 cores at load 5). The copy in
a separate process did the same, so it was not the GIL but the CPU. At nice 10 (what `nice` gives
by default) the copy takes what the app leaves: 8 ms at the median during it. An idle machine
runs it as fast as before.

The priority of a thread can be lowered but not raised again without privileges, so the work runs
in a thread of its own, which ends with it; the caller's thread keeps its priority.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

BACKGROUND_NICE = 10
T = TypeVar("T")


def run_in_background(work: Callable[[], T], *, name: str = "memoryrush-background") -> T:
    """`work()` in a thread of its own at background CPU priority, waited for: its result, or the
    exception it raised. (Linux only lowers one thread's priority; elsewhere it runs as is.)"""
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        _lower_this_thread()
        try:
            results.append(work())
        except BaseException as exc:  # raised again in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return results[0]


def _lower_this_thread() -> None:
    if not sys.platform.startswith("linux"):
        return  # setpriority() names one thread by its id on Linux only (elsewhere: the process)
    tid = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) < BACKGROUND_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, BACKGROUND_NICE)
    except OSError:
        pass  # the work runs at the usual priority
