"""Run every benchmark in bench/ and print its figures (no pass/fail: figures for the notes).

python bench/run_all.py            # all
python bench/run_all.py import     # those whose file name contains "import"
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    wanted = sys.argv[1:]
    scripts = sorted(p for p in HERE.glob("bench_*.py") if not wanted or any(w in p.name for w in wanted))
    failed = 0
    for script in scripts:
        print(f"=== {script.name}", flush=True)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(script)], check=False)
        print(
            f"=== {script.name}: exit {done.returncode} in {time.perf_counter() - started:.1f} s\n",
            flush=True,
        )
        failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
