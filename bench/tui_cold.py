"""Cold start to the first interactive frame (Textual's Ready event) for bench/bench_tui.py:
MemoryRush on the big library and on an empty one vs a bare Textual app, each in a fresh
process, interleaved (target <= 1.25x bare)."""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLD = r"""
import sys, time
t0, c0 = time.perf_counter(), time.process_time()
sys.path.insert(0, {root!r})
mode = sys.argv[1]
if mode == "bare":
    from textual.app import App
    class Bare(App[None]):
        def on_ready(self) -> None:
            print(time.perf_counter() - t0, time.process_time() - c0); self.exit()
    Bare().run(headless=True)
else:
    # What the `memoryrush` console script (tui.launch.main, no arguments) does: start_up(),
    # then tui.process.run: import the app, open the library and run the app on it.
    from tui.launch import start_up
    start_up()
    from datetime import UTC, datetime
    from core.host.clock import FixedClock
    from core.services.bootstrap import open_services
    from tui.app import MemoryRushApp
    class Timed(MemoryRushApp):
        def on_ready(self) -> None:
            print(time.perf_counter() - t0, time.process_time() - c0); self.exit()
    svc = open_services(None, clock=FixedClock(datetime(2026, 11, 2, 12, tzinfo=UTC)))
    try:
        Timed(svc).run(headless=True)
    finally:
        svc.close()
"""


def cold_start(home: Path, empty: Path, runs: int) -> None:
    """Seconds from the child script's first line to Ready: bare app, MemoryRush on an empty library and on
    the big one (the last two differ only by the library's size), interleaved, each in a fresh process.

    Both sides load byte-compiled modules, as an installed package does (pip compiles them): the
    children share a bytecode cache filled by one uncounted warm-up round. Without it, under
    PYTHONDONTWRITEBYTECODE, our modules were compiled from source on every run while Textual's
    came precompiled from site-packages.
    """
    script = COLD.format(root=str(ROOT))
    cases = {"bare": ("bare", home), "empty": ("memoryrush", empty), "1M": ("memoryrush", home)}
    results: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    pycache = tempfile.mkdtemp(prefix="memoryrush-bench-pycache-")
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base_env["PYTHONPYCACHEPREFIX"] = pycache
    for round_no in range(runs + 1):
        order = list(cases.items())
        random.Random(round_no).shuffle(order)  # no case always runs right after another
        for name, (mode, where) in order:
            env = {**base_env, "MEMORYRUSH_HOME": str(where)}
            done = subprocess.run(
                [sys.executable, "-c", script, mode], env=env, capture_output=True, text=True
            )
            if done.returncode:
                raise SystemExit(f"{mode} run failed:\n{done.stderr[-3000:]}")
            # The child prints seconds from its first line to Ready; the process wall time would
            # also count exit, which waits for Home's stats worker thread to finish.
            if round_no:  # round 0 fills the bytecode cache
                wall, used = done.stdout.strip().splitlines()[-1].split()
                results[name].append(float(wall))
                cpu[name].append(float(used))
    bare, empty_ms, big = (statistics.median(results[k]) * 1000 for k in ("bare", "empty", "1M"))
    best = min(results["1M"]) / min(results["bare"])
    print(
        f"cold start to first frame (script start -> Ready, median of {runs}): bare Textual {bare:.0f} ms; "
        f"MemoryRush empty library {empty_ms:.0f} ms; MemoryRush 1M cards {big:.0f} ms -> "
        f"{big / bare:.2f}x bare (target <= 1.25x; best-of-{runs} ratio {best:.2f}x), "
        f"{big / empty_ms:.2f}x the empty library"
    )
    paired = statistics.median(m / b for b, m in zip(results["bare"], results["1M"], strict=True))
    print(f"  median of the per-round ratios (1M / bare, same round): {paired:.2f}x")
    bare_cpu, big_cpu = (statistics.median(cpu[k]) * 1000 for k in ("bare", "1M"))
    print(
        f"  CPU time of the same runs (medians): bare {bare_cpu:.0f} ms, MemoryRush 1M {big_cpu:.0f} ms -> "
        f"{big_cpu / bare_cpu:.2f}x; each run (wall ms, bare / 1M): "
        + ", ".join(
            f"{b * 1000:.0f}/{m * 1000:.0f}" for b, m in zip(results["bare"], results["1M"], strict=True)
        )
    )
    shutil.rmtree(pycache, ignore_errors=True)
