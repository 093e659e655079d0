"""Drive the real Textual app with Pilot on a library in tmp_path (no pytest-asyncio needed)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.worker import WorkerFailed

from core.host.clock import FixedClock

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
SIZE = (120, 36)


def run_app(home: Path, body: Callable[[Any, Any], Awaitable[None]], *, start: str = "home") -> None:
    """Open services and the app on `home`, run `body(app, pilot)`, close everything."""
    from core.services.bootstrap import open_services
    from tui.app import MemoryRushApp

    async def main() -> None:
        svc = open_services(home, clock=FixedClock(NOW))
        svc.review.tz = UTC
        svc.review.fuzz = False
        try:
            app = MemoryRushApp(svc, start=start)
            async with app.run_test(size=SIZE) as pilot:
                await settle(pilot)
                await body(app, pilot)
        finally:
            svc.close()

    asyncio.run(main())


async def settle(pilot: Any, rounds: int = 3) -> None:
    """Let our workers finish and the screen repaint. DirectoryTree's `_loader` worker runs for
    the widget's life, so `app.workers.wait_for_complete()` would wait for ever on Import."""
    for _ in range(rounds):
        while pilot.app.worker_threads.writing():  # the writer thread's commands (tui/workers.py)
            await pilot.pause(0.005)
        for worker in list(pilot.app.workers):
            if worker.group != "_loader" and not worker.is_finished:
                try:
                    await worker.wait()
                except WorkerFailed:  # the app reports it as a notice; tests check that
                    pass
        await pilot.pause()


def notices(app: Any, severity: str | None = None) -> list[str]:
    return [str(n.message) for n in app._notifications if severity is None or n.severity == severity]


def screen_text(app: Any) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
