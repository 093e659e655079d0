"""Replay a recorded session of keys over the sample library and dump what it left (prints; asserts nothing).

    python bench/replay_keys.py [--out FILE] [--keys FILE]

Issue 31's check that a renovation changes no behaviour: the same key presses on old and new
main must leave the same library. A fresh library under a fixed clock gets the sample articles
(offline extractor, as `--demo`); the app runs headless at 160x48 and is sent the keys one at a
time, each followed by every worker's end and a repaint; then every table a reader's data lives
in is written out row by row, sorted (the journals, whose shape is what changes, and the search
index's internals are left out). Run it on both checkouts and `diff` the two dumps:

    python bench/replay_keys.py --out /tmp/old.txt     # in the old checkout
    python bench/replay_keys.py --out /tmp/new.txt     # in the new one
    diff /tmp/old.txt /tmp/new.txt && echo same

The default session (KEYS) triages, reviews with undo, suspends and trashes in Browse and undoes,
restores from the Trash and moves through Schedule; `--keys FILE` takes one key a line ("#"
lines are comments, "wait" lets a second of the fixed clock pass).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
KEYS = """
# Triage: accept, reject, undo, accept, skip, accept, accept
t a r u a s a a a a
escape
# Review: reveal and rate, undo, suspend and undo, bury
r space 3 space 1 u space 4 space 2 x u space 3 b
escape
# Browse: pick two, suspend, undo; pick, trash; undo; pick, trash
b space down space x u space d u down space d
escape
# Schedule: Sunday off and undone, Sunday off kept; postpone today's cards a day, undone, again
w e end backspace 0 enter u e end backspace 0 enter p enter u p enter
escape
# Library: open the first article, move through its units and paragraphs, its ideas, a unit
# of the first idea, the units filtered by status
l enter n n n p s m f f escape escape
# Browse's Trash view: restore what was trashed, undo, restore again
b w r u r
escape escape
r space 3 space 4
escape
"""
# What a reader's data lives in; journals and index internals are compared by what they do.
LEFT_OUT = ("undo_entry", "bulk_", "curation_event", "journal", "search_", "sqlite_")
# Columns of wall-clock time, not the fixed clock's: how long an extraction or an answer took.
BLANKED = {"timings_json", "duration_ms"}


async def replay(keys: list[str]) -> None:
    from core.host.clock import FixedClock
    from core.services.bootstrap import open_services
    from tests.pilot_support import settle  # the tests' wait: every key's work ends before the next
    from tui.app import MemoryRushApp

    clock = FixedClock(NOW)
    services = open_services(Path(os.environ["MEMORYRUSH_HOME"]), clock=clock)
    services.review.rng = random.Random(31)  # the schedule's fuzz drawn the same on every run
    # from one fixed folder: an article's document id is made of its path, the same on any checkout
    articles = Path(tempfile.gettempdir()) / "memoryrush-replay-articles"
    shutil.rmtree(articles, ignore_errors=True)
    shutil.copytree(ROOT / "sample_articles", articles, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    outcomes = services.library.import_paths(sorted(articles.iterdir()), extractor="offline")
    print(f"imported {sum(o.status == 'imported' for o in outcomes)} articles", file=sys.stderr)
    app = MemoryRushApp(services)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        for key in keys:
            if key == "wait":
                clock.advance(seconds=1)
                continue
            await pilot.press(key)
            clock.advance(seconds=1)
            await settle(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
    services.close()


def dump(database: Path) -> list[str]:
    """Every row of every table a reader's data lives in, sorted, one line each."""
    con = sqlite3.connect(database)
    try:
        names = [
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        lines = []
        for name in names:
            if name.startswith(LEFT_OUT):
                continue
            columns = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            shown = ", ".join("NULL" if c in BLANKED else f'"{c}"' for c in columns)
            rows = sorted(repr(row) for row in con.execute(f'SELECT {shown} FROM "{name}"'))
            lines.append(f"## {name}: {len(rows)} rows ({', '.join(columns)})")
            lines.extend(rows)
        return lines
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, help="write the dump here (default: standard output)")
    parser.add_argument("--keys", type=Path, help="one key a line (default: the built-in session)")
    args = parser.parse_args()
    text = args.keys.read_text(encoding="utf-8") if args.keys else KEYS
    keys = [k for line in text.splitlines() if not line.lstrip().startswith("#") for k in line.split()]
    with tempfile.TemporaryDirectory(prefix="memoryrush-replay-") as home:
        os.environ["MEMORYRUSH_HOME"] = home
        asyncio.run(replay(keys))
        lines = dump(Path(home) / "memoryrush.sqlite3")
    out = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    print(
        f"{len(keys)} keys; {sum(not line.startswith('## ') for line in lines)} rows dumped", file=sys.stderr
    )


if __name__ == "__main__":
    main()
