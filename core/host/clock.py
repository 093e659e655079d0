"""An explicit clock: services take one, tests pass a fixed one. UTC only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta


class Clock:
    """The system clock in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def epoch(self) -> int:
        return int(self.now().timestamp())


@dataclass
class FixedClock(Clock):
    """A clock that only moves when told (tests, benchmarks)."""

    current: datetime

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current = self.current + timedelta(**delta)

    def set(self, when: datetime) -> None:
        self.current = when
