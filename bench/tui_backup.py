"""Answers during a backup, as the app makes them, for bench/bench_tui.py (`--only backup`).

The app on the big library (a throw-away copy), on Review: "Back up now" starts the app's backup
worker (tui/backup_worker.py, the copy in a thread of this process), and cards are rated while it
runs, each timed from the rating key until the next card is painted (the answer is saved by a
thread worker, as in the app). The same number of ratings before the backup gives the baseline.
Target: an answer during the backup within a frame (p95 <= 16.7 ms).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bench.frames import Ms, painted, pct
from bench.tui_library import bench_app

QUIET = 40  # ratings before the backup (the baseline)
GAP = 0.05  # s between two ratings during the backup (a quick reader; keys no faster than this)


async def review_during_backup(home: Path) -> None:
    from tui.screens.review import ReviewScreen

    app = bench_app(home)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await painted(app, lambda: app.push_screen(ReviewScreen()))
        screen = app.screen

        async def rate() -> None:
            shown = screen.item
            screen.action_rate(3)
            while screen.item is shown:
                await asyncio.sleep(0.0002)

        async def one() -> Ms:
            await painted(app, screen.action_reveal)  # untimed: the answer is shown before the key
            return await painted(app, rate)

        quiet = [await one() for _ in range(QUIET)]
        started = time.perf_counter()
        app.action_backup()
        await asyncio.sleep(0)
        backup = _backup_worker(app)
        during: list[Ms] = []
        while not backup.is_finished:
            during.append(await one())
            await asyncio.sleep(GAP)
        seconds = time.perf_counter() - started
        await app.workers.wait_for_complete()
        assert backup.error is None, backup.error
    app.services.close()
    print(
        f"review during a backup ({seconds:.1f} s, the app's worker): rating -> next card painted "
        f"{pct(during)}; before it {pct(quiet)} (target p95 <= 16.7 ms); slowest {max(during):.1f} ms"
    )


def _backup_worker(app: Any) -> Any:
    for worker in app.workers:
        if worker.group == "backup":
            return worker
    raise SystemExit("the backup worker did not start")
