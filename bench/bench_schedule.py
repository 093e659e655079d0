"""Schedule tools on the 1M-card library (figures for the notes, no pass/fail).

    python bench/bench_schedule.py [--home DIR] [--cards 1000000] [--runs N]

The whole-library tools of issue 17 that a reader runs from the Schedule screen, on
bench_browse's library (kept in --home; built there on first use): the 30-day forecast with
its workload per retention, the workload change a new desired retention would make (shown
before rescheduling), the reschedule of every review card for it and its undo (one
transaction each), and easy days applied with their undo. Wall and CPU seconds for each;
the WAL checkpoint a bulk write leaves to a background thread is waited for and timed apart.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_browse import make_library  # noqa: E402


def timed(label: str, fn: Callable[[], Any], seconds: dict[str, list[float]]) -> Any:
    from core.storage import checkpoint

    started, cpu = time.perf_counter(), time.process_time()
    out = fn()
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    started = time.perf_counter()
    checkpoint.wait()
    ckpt = time.perf_counter() - started
    seconds.setdefault(label, []).append(wall)
    cards = getattr(out, "cards", None)
    what = f" ({cards:,} cards)" if isinstance(cards, int) else ""
    print(f"  {label}{what}: {wall:.2f} s (CPU {used:.2f}); background WAL checkpoint after: {ckpt:.2f} s")
    return out


def run(home: Path, runs: int) -> None:
    from core.services.bootstrap import open_services

    svc = open_services(home)
    seconds: dict[str, list[float]] = {}
    try:
        tools = svc.schedule
        for n in range(runs):
            print(f"run {n + 1}:")
            timed("forecast (30 days, workload per retention)", tools.forecast, seconds)
            change = timed(
                "workload change for retention 0.85", lambda: tools.retention_change(0.85), seconds
            )
            print(
                f"    {change.cards:,} cards re-timed; next 30 days {change.old_total:,} -> {change.new_total:,} reviews"
            )
            timed("reschedule every review card for 0.85", lambda: tools.reschedule(0.85), seconds)
            timed("  the reschedule's undo", svc.browse.undo, seconds)
            timed(
                "easy days set and applied (Saturday and Sunday at half load)",
                lambda: tools.set_easy_days("1 1 1 1 1 0.5 0.5"),
                seconds,
            )
            timed("  their undo (the easy days back too)", svc.browse.undo, seconds)
    finally:
        svc.close()
    if runs > 1:
        for label, values in seconds.items():
            print(f"{label}: median {statistics.median(values):.2f} s, max {max(values):.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", type=Path, default=Path("/tmp/memoryrush-bench-browse"))
    parser.add_argument("--cards", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    os.environ["MEMORYRUSH_HOME"] = str(args.home)
    make_library(args.home, args.cards)
    run(args.home, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
