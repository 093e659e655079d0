"""Frame timing for the TUI benches (bench_tui.py, tui_backup.py, bench_browse.py): how long an
action takes until it is on screen (`painted`), in wall and CPU milliseconds (`Ms`), and the
p50/p95 line they print (`pct`, `first`)."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any


class Ms(float):
    """Wall-clock milliseconds (the figure the targets are about), with the process's CPU
    milliseconds for the same span in `.cpu`: on a shared machine the wall time also counts the
    time other processes held the CPU, the CPU time doesn't."""

    cpu: float = 0.0


async def painted(app: object, action: Callable[[], object]) -> Ms:
    """Time `action` and everything it sets off on the UI until it is on screen: the messages
    it posted handled (`settled`), then the screen update Textual's frame timer runs (layout
    if needed, then rendering the dirty widgets), done synchronously.

    A widget's refresh reaches the screen as a message (its Update) after the widget's queue
    is empty: painting right after the action painted only what earlier actions had asked for,
    and this action's paint fell into the next sample. Waiting for the next refresh would
    measure the 60 fps frame timer instead; the frame timer may also paint while the messages
    are handled, which is counted, as it happens inside the span.
    """
    await settled(app)
    started, cpu_started = time.perf_counter(), time.process_time()
    result = action()
    if isinstance(result, Awaitable):
        await result
    await settled(app)
    app.screen._on_timer_update()  # type: ignore[attr-defined]
    elapsed = Ms((time.perf_counter() - started) * 1000)
    elapsed.cpu = (time.process_time() - cpu_started) * 1000
    return elapsed


async def settled(app: Any) -> None:
    """Run the event loop until the app and every node of its screen have no message queued
    and no callback waiting, three loop turns in a row (a message being handled posts the
    next one within a turn). Reads Textual's private queue state: a bench's view of "idle"."""
    quiet = 0
    while quiet < 3:
        await asyncio.sleep(0)
        nodes = [app, *app.screen.walk_children(with_self=True)]
        busy = any(not n._message_queue.empty() or n._next_callbacks for n in nodes)
        quiet = 0 if busy else quiet + 1


def pct(samples: list[Ms]) -> str:
    def p50_p95(values: list[float]) -> tuple[float, float]:
        ordered = sorted(values)
        return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]

    wall, cpu = p50_p95(list(samples)), p50_p95([s.cpu for s in samples])
    return (
        f"p50 {wall[0]:.1f} ms, p95 {wall[1]:.1f} ms (n={len(samples)}; "
        f"CPU p50 {cpu[0]:.1f}, p95 {cpu[1]:.1f})"
    )


def first(sample: Ms) -> str:
    return f"{sample:.1f} ms (CPU {sample.cpu:.1f})"
