"""Export and backup benchmark: the `memoryrush` commands themselves, on big libraries.

    python bench/bench_export.py [--cards 100000] [--backup-cards 1000000] [--reuse DIR]

1. A library of --cards cards (bench/library_rows.fill_library: 2 questions a unit, 3 reviews a
   card) exported with `memoryrush export anki`, `export json`, `export csv`, then `import-library`
   of the JSON into an empty library: wall time of each command (targets: apkg <= 15 s, json <= 5 s).
2. A library of --backup-cards cards; a reviewer process holds it like the app does (instance
   lock) and answers a card every 50 ms through the review service, while `memoryrush backup`
   copies it: the backup's wall time (target <= 10 s), the answers made during the copy, the
   slowest answer, and that the copy passes integrity_check.

Prints figures; asserts nothing. The machine is shared: run it twice and quote both.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.library_rows import fill_library  # noqa: E402

REVIEWER = r"""
import os, sys, time
from core.services.bootstrap import open_services
from scheduler import Rating
from dataclasses import replace
svc = open_services(None)  # takes the instance lock, as the app does
svc.config = replace(svc.config, max_reviews_per_day=99999)  # a second run has cards too
svc.review.start_session()
print("ready", flush=True)
worst = 0.0
n = 0
stop = time.monotonic() + float(sys.argv[1])
while time.monotonic() < stop and not os.path.exists(sys.argv[2]):
    item = svc.review.next_card()
    if item is None:
        break
    t = time.perf_counter()
    svc.review.answer(item.card.id, Rating.GOOD)
    worst = max(worst, time.perf_counter() - t)
    n += 1
    print(f"answer {time.time():.3f}", flush=True)
    time.sleep(0.05)
print(f"done {n} {worst * 1000:.1f}", flush=True)
svc.close()
"""


def env(home: Path) -> dict[str, str]:
    return {**os.environ, "MEMORYRUSH_HOME": str(home), "PYTHONPATH": str(ROOT)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def memoryrush(home: Path, *args: str) -> float:
    """Run the command; returns its wall time and prints its CPU time too (on a shared machine
    the wall time is the CPU time plus the wait for a core)."""
    exe = Path(sys.executable).with_name("memoryrush")
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([str(exe), *args], env=env(home), capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"memoryrush {' '.join(args)} failed: {done.stderr}")
    print(f"    {done.stdout.strip()}  [cpu {_children_cpu() - cpu:.2f} s, load {os.getloadavg()[0]:.1f}]")
    return seconds


def make_library(home: Path, cards: int) -> None:
    if (home / "memoryrush.sqlite3").exists():
        return
    home.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from core.services.bootstrap import open_services; open_services(None).close()",
        ],
        env=env(home),
        check=True,
        cwd=ROOT,
    )
    started = time.perf_counter()
    fill_library(home / "memoryrush.sqlite3", cards, now=int(time.time()))
    size = (home / "memoryrush.sqlite3").stat().st_size / 1e6
    print(f"  built {cards:,} cards in {time.perf_counter() - started:.1f} s ({size:.0f} MB)")


def bench_exports(work: Path, cards: int) -> None:
    home = work / f"lib-{cards}"
    make_library(home, cards)
    print(f"exports of {cards:,} cards:")
    for fmt, target in (("anki", "out.apkg"), ("json", "out.json"), ("csv", "out.csv")):
        seconds = memoryrush(home, "export", fmt, str(work / target))
        size = (work / target).stat().st_size / 1e6
        print(f"  export {fmt:<5} {seconds:6.2f} s   ({size:.0f} MB)")
    fresh = work / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    seconds = memoryrush(fresh, "import-library", str(work / "out.json"))
    print(f"  import-library {seconds:6.2f} s (index rebuilt)")


def bench_backup(work: Path, cards: int) -> None:
    home = work / f"lib-{cards}"
    make_library(home, cards)
    print(f"backup of {cards:,} cards while a review goes on:")
    stop = work / "stop-reviewer"
    stop.unlink(missing_ok=True)
    reviewer = subprocess.Popen(
        [sys.executable, "-c", REVIEWER, "300", str(stop)],
        env=env(home),
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert reviewer.stdout is not None
    assert reviewer.stdout.readline().startswith("ready")
    time.sleep(1.0)
    target = work / "backup.sqlite3"
    target.unlink(missing_ok=True)
    started = time.time()
    seconds = memoryrush(home, "backup", str(target))
    ended = time.time()
    time.sleep(1.0)
    stop.touch()
    lines = reviewer.communicate(timeout=60)[0].splitlines()
    during = sum(
        1 for line in lines if line.startswith("answer") and started <= float(line.split()[1]) <= ended
    )
    done = next((line.split() for line in lines if line.startswith("done")), ["done", "?", "?"])
    con = sqlite3.connect(target)
    verdict = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    print(
        f"  backup {seconds:6.2f} s ({target.stat().st_size / 1e6:.0f} MB, integrity {verdict}); {during} answers saved during it, slowest answer {done[2]} ms ({done[1]} in all)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--backup-cards", type=int, default=1_000_000)
    parser.add_argument("--reuse", type=Path, default=None, help="Keep the libraries in DIR between runs.")
    parser.add_argument("--backup-only", action="store_true", help="Only the backup part.")
    args = parser.parse_args()
    work = args.reuse or Path(tempfile.mkdtemp(prefix="mr-bench-export-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if not args.backup_only:
            bench_exports(work, args.cards)
        bench_backup(work, args.backup_cards)
    finally:
        if args.reuse is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
