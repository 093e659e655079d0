"""Browse benchmark on a 1M-card library (figures for the notes, no pass/fail).

    python bench/bench_browse.py [--home DIR] [--cards 1000000] [--no-bulk | --bulk-only] [--bulk-runs N]
        [--bulk-action suspend|trash|...] [--bulk-trace]

1. Browse in the app (headless, 160x48): first paint (push -> first page of rows painted),
   filter change and sort change (-> the new first page painted; every column both ways and
   the filters below), cursor move (targets: paint <= 100 ms, filter/sort p95 <= 150 ms,
   move p95 <= 16.7 ms). The count of matching rows comes later from its own worker and is
   timed apart. Each change also prints its drawing part (the page on screen -> painted, and
   the UI thread's CPU for it) apart from the read, and the cursor moves within the window
   apart from the ones that scroll the table (Textual redraws a scrolled widget whole).
2. A bulk action on 100k cards (suspend by filter, or --bulk-action's: a trash writes its 50k
   units too; then its undo), one transaction each
   (target <= 3 s), --bulk-runs times (wall and CPU of each, the commit included; the WAL
   checkpoint each leaves to a background thread is waited for and timed apart, untimed in the
   action's own figure). --bulk-trace also prints each SQL statement of the action and of its
   undo that took 10 ms or more (wall and CPU): where the time goes, statement by statement.

The library is bench/library_rows.fill_library's (2 questions a unit, cards in review, 3
reviews each), kept in --home between runs; its first open makes Browse's sort indexes (timed),
and its units are put in the search index once (the text filter reads it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from core.domain.undo import Scope

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.frames import Ms, first, painted, pct  # noqa: E402
from bench.library_rows import fill_library  # noqa: E402
from core.domain.browse import BulkAction  # noqa: E402

FILTERS = ("r<0.8", "is:suspended", "tag:bench", "type:concept", "due<7", "reviewed:30", "memory", "zzzz")


def make_library(home: Path, cards: int) -> None:
    db = home / "memoryrush.sqlite3"
    if not db.exists():
        home.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "MEMORYRUSH_HOME": str(home)}
        code = "from core.services.bootstrap import open_services; open_services(None).close()"
        subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=ROOT)
        started = time.perf_counter()
        fill_library(db, cards, now=int(time.time()))
        print(f"built {cards:,} cards in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    from core.services.bootstrap import open_services

    open_services(home).close()  # the first open with Browse makes its sort indexes
    print(f"open (sort indexes made if missing): {time.perf_counter() - started:.1f} s")
    index_units(home)


def index_units(home: Path) -> None:
    """The units in the search index, as an import puts them there (fill_library leaves it
    empty; Browse's text filter reads it), once."""
    from core.services.bootstrap import open_services
    from core.storage.db import db, write_transaction
    from core.storage.search import index as search_index

    svc = open_services(home)
    if not db.execute_sql("SELECT 1 FROM search_unit LIMIT 1").fetchone():
        started = time.perf_counter()
        with write_transaction():
            for (unit_id,) in list(db.execute_sql("SELECT id FROM unit")):
                search_index.reindex_unit(unit_id)
        print(f"search index of the units written in {time.perf_counter() - started:.0f} s")
    svc.close()


class Shown(Ms):
    """A change's wall ms (CPU of every thread in `.cpu`) with its drawing part apart: from the
    page reaching the screen to its paint done, wall in `.draw`, the UI thread's CPU in
    `.draw_cpu` (the rest is the page's read in its worker, and waiting for the CPU)."""

    draw: float = 0.0
    draw_cpu: float = 0.0


async def shown(app: object, screen: object, change: object) -> Shown:
    """Time a change until its first page is painted (the page is read in a worker)."""
    arrived: list[tuple[float, float]] = []
    show_page = screen._show_page  # type: ignore[attr-defined]

    def timed_show_page(generation: int, page: object) -> None:
        arrived.append((time.perf_counter(), time.thread_time()))
        show_page(generation, page)

    screen._show_page = timed_show_page  # type: ignore[attr-defined]
    await asyncio.sleep(0)
    started, cpu = time.perf_counter(), time.process_time()
    change()  # type: ignore[operator]
    while screen._shown_generation != screen._generation:  # type: ignore[attr-defined]
        await asyncio.sleep(0.0005)
    app.screen._on_timer_update()  # type: ignore[attr-defined]
    elapsed = Shown((time.perf_counter() - started) * 1000)
    elapsed.cpu = (time.process_time() - cpu) * 1000
    if arrived:
        elapsed.draw = (time.perf_counter() - arrived[-1][0]) * 1000
        elapsed.draw_cpu = (time.thread_time() - arrived[-1][1]) * 1000
    del screen._show_page  # type: ignore[attr-defined]
    return elapsed


def drawing(samples: list[Shown]) -> str:
    """p50 and p95 of the drawing part of changes (wall, and the UI thread's CPU)."""
    return pct([_as_ms(s.draw, s.draw_cpu) for s in samples])


def _as_ms(wall: float, cpu: float) -> Ms:
    ms = Ms(wall)
    ms.cpu = cpu
    return ms


async def _rows_below(table: object, screen: object) -> None:
    """Wait (untimed) until the row below the cursor is loaded: a move at the last loaded row
    does nothing while the next page is read, and timing it would time nothing."""
    for _ in range(2000):
        if table.cursor_row < table.row_count - 1 or table.row_count >= (screen._total or 0):  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.005)


async def in_app(home: Path) -> None:
    from core.domain.browse import BrowseSort, Column
    from core.services.bootstrap import open_services
    from tui.app import MemoryRushApp
    from tui.screens.browse import BrowseScreen

    svc = open_services(home)
    app = MemoryRushApp(svc)
    async with app.run_test(size=(160, 48)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = BrowseScreen()
        opened = await shown(app, screen, lambda: app.push_screen(screen))
        counted = time.perf_counter()
        while screen._total is None:
            await asyncio.sleep(0.005)
        count_ms = (time.perf_counter() - counted) * 1000 + opened
        print(
            f"browse ({screen._total:,} rows): first paint {first(opened)}, of which drawing "
            f"{opened.draw:.1f} ms (UI CPU {opened.draw_cpu:.1f}); count shown after {count_ms:.0f} ms"
        )
        table = screen.query_one("DataTable")
        table.focus()
        await pilot.pause()
        moves = []
        for _ in range(300):
            await _rows_below(table, screen)
            moves.append(await painted(app, table.action_cursor_down))
        rows_shown = table.size.height - 1  # the moves past it scroll the table
        print(f"cursor move (300 rows, pages read on the way) {pct(moves)}")
        print(f"  within the window {pct(moves[: rows_shown - 1])}; scrolling {pct(moves[rows_shown:])}")
        sorts: dict[str, Shown] = {}
        for column in Column:
            for descending in (False, True):

                def resort(c: Column = column, d: bool = descending) -> None:
                    screen._sort = BrowseSort(c, d)
                    screen._reload()

                sorts[f"{column.value}{' desc' if descending else ''}"] = await shown(app, screen, resort)
        print(f"sort change, every column both ways: {pct(list(sorts.values()))}")
        print(f"  drawing part (page shown -> painted): {drawing(list(sorts.values()))}")
        print("  each: " + ", ".join(f"{k} {v:.0f}" for k, v in sorts.items()))
        screen._sort = BrowseSort()
        filters = {line: await shown(app, screen, lambda q=line: screen._apply_query(q)) for line in FILTERS}
        print(f"filter change ({len(FILTERS)} filters): {pct(list(filters.values()))}")
        print(f"  drawing part (page shown -> painted): {drawing(list(filters.values()))}")
        print("  each: " + ", ".join(f"{k!r} {v:.0f}" for k, v in filters.items()))
    svc.close()


class Trace:
    """The SQL statements run through peewee's execute_sql, each with its wall and CPU time."""

    def __init__(self) -> None:
        from core.storage.db import db

        self.db, self.run = db, db.execute_sql
        self.lines: list[tuple[float, float, str]] = []

    def __enter__(self) -> Trace:
        def timed(sql: str, params: object = None, *args: object, **kwargs: object) -> object:
            started, cpu = time.perf_counter(), time.process_time()
            try:
                return self.run(sql, params, *args, **kwargs)
            finally:
                self.lines.append((time.perf_counter() - started, time.process_time() - cpu, sql))

        self.db.execute_sql = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        del self.db.execute_sql  # the class's method again

    def show(self, label: str, at_least: float = 0.01) -> None:
        print(f"  {label}, the statements of {at_least * 1000:.0f} ms or more:")
        for wall, cpu, sql in self.lines:
            if wall >= at_least:
                print(f"    {wall:.3f} s (CPU {cpu:.3f}) {' '.join(sql.split())[:160]}")
        self.lines.clear()


def bulk(home: Path, runs: int = 1, action_name: str = "suspend", trace: bool = False) -> None:
    from core.domain.browse import BrowseFilter, Selection
    from core.services.bootstrap import open_services
    from core.storage import checkpoint

    def settled() -> float:
        """The background WAL checkpoint the action left (core.storage.checkpoint), waited for."""
        started = time.perf_counter()
        checkpoint.wait()
        return time.perf_counter() - started

    action = BulkAction(action_name)
    svc = open_services(home)
    f = BrowseFilter(article_ids=tuple(range(1, 501)))  # 500 articles of 100 units, 2 cards each
    n = svc.browse.count(f)
    acts: list[float] = []
    undos: list[float] = []
    tracer = Trace() if trace else None
    for _ in range(runs):
        with tracer or contextlib.nullcontext():
            started, cpu = time.perf_counter(), time.process_time()
            result = svc.browse.act(action, Selection(f), tag="bench", days=3)
            took, took_cpu = time.perf_counter() - started, time.process_time() - cpu
        took_ckpt = settled()
        if tracer:
            tracer.show(action.value)
        with tracer or contextlib.nullcontext():
            started, cpu = time.perf_counter(), time.process_time()
            svc.undo.undo(Scope.BULK)
            undo, undo_cpu = time.perf_counter() - started, time.process_time() - cpu
        undo_ckpt = settled()
        if tracer:
            tracer.show("its undo")
        acts.append(took)
        undos.append(undo)
        print(
            f"bulk {action.value} of {result.cards:,} cards, {result.units:,} units ({n:,} rows in the filter): "
            f"{took:.2f} s (CPU {took_cpu:.2f}) "
            f"in one transaction; its undo {undo:.2f} s (CPU {undo_cpu:.2f}) (target <= 3 s); "
            f"their WAL checkpoints after, in the background: {took_ckpt:.2f} s, {undo_ckpt:.2f} s"
        )
    if runs > 1:
        print(
            f"  {action.value}: median {statistics.median(acts):.2f} s, max {max(acts):.2f} s; "
            f"undo: median {statistics.median(undos):.2f} s, max {max(undos):.2f} s"
        )
    svc.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", type=Path, default=Path("/tmp/memoryrush-bench-browse"))
    parser.add_argument("--cards", type=int, default=1_000_000)
    parser.add_argument("--no-bulk", action="store_true", help="only Browse in the app (part 1)")
    parser.add_argument("--bulk-only", action="store_true", help="only the bulk action and its undo (part 2)")
    parser.add_argument("--bulk-runs", type=int, default=1, help="times to run part 2")
    parser.add_argument(
        "--bulk-action",
        default="suspend",
        choices=[a.value for a in BulkAction if a != BulkAction.MOVE_DECK],  # a move needs a deck
        help="the action of part 2 (a tag's is 'bench', a postpone's 3 days)",
    )
    parser.add_argument("--bulk-trace", action="store_true", help="part 2's SQL statements, timed")
    args = parser.parse_args()
    os.environ["MEMORYRUSH_HOME"] = str(args.home)
    make_library(args.home, args.cards)
    if not args.bulk_only:
        asyncio.run(in_app(args.home))
    if not args.no_bulk:
        bulk(args.home, args.bulk_runs, args.bulk_action, args.bulk_trace)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
