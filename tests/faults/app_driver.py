"""Drive the real Textual app with Pilot on a library in tmp_path (no pytest-asyncio needed)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.host.clock import FixedClock
from tests.pilot_support import screen_text as screen_text  # (re-exported: tests import them from here)
from tests.pilot_support import settle as settle

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


def notices(app: Any, severity: str | None = None) -> list[str]:
    return [str(n.message) for n in app._notifications if severity is None or n.severity == severity]
