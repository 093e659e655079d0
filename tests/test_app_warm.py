"""Once the app's first frame is shown, the code of the screens opened from Home is imported in a
thread (tui.app.WARM_MODULES), so Browse's first paint does not pay ~30 ms of imports
(bench/bench_browse.py) — and the warming imports nothing heavy, so start-up stays as fast.

Run in a fresh interpreter: in this one, other tests have imported the screens already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tui.app import WARM_MODULES

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import asyncio, json, sys
from core.services.bootstrap import open_services
from tui.app import MemoryRushApp, WARM_MODULES

async def main():
    app = MemoryRushApp(open_services())
    before = [m for m in WARM_MODULES if m in sys.modules]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        after = [m for m in WARM_MODULES if m in sys.modules]
        screen = type(app.screen).__name__
    print(json.dumps({"before": before, "after": after, "all": sorted(sys.modules), "screen": screen}))

asyncio.run(main())
"""

HEAVY = ("trafilatura", "lxml", "pypdfium2", "docutils", "opencc", "rapidfuzz", "spellchecker")
HEAVY += ("genanki", "ollama", "mcp", "rjieba", "lemminflect", "plotext", "textual_plotext")


def test_the_screens_code_is_imported_after_the_first_frame_and_nothing_heavy(data_home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == "HomeScreen"
    assert "tui.screens.browse" not in seen["before"]  # not at launch: after the first frame
    assert seen["after"] == list(WARM_MODULES)
    loaded = set(seen["all"])
    assert not {m for m in HEAVY if m in loaded}, sorted(m for m in HEAVY if m in loaded)
