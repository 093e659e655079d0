"""What the services that count review days share: the settings in use, the clock and the zone.

Review, Stats, Browse and Schedule each declared these fields and worked out the zone and the
review day themselves (four copies of "the zone given, else this machine's"). A review day is one
rule: it starts at `config.day_starts_at_hour` local time in the zone (scheduler.review_day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

import scheduler
from core.host.clock import Clock
from core.host.config import Config, Settings


@dataclass
class Clocked:
    settings: Settings
    clock: Clock
    tz: tzinfo | None = None  # the zone review days are counted in; None: this machine's, read each time

    @property
    def config(self) -> Config:
        return self.settings.current

    def now(self) -> datetime:
        """The clock's time in UTC, in whole seconds."""
        return self.clock.now().astimezone(UTC).replace(microsecond=0)

    def zone(self) -> tzinfo:
        return self.tz or datetime.now().astimezone().tzinfo or UTC

    def day(self, now: datetime | None = None) -> scheduler.DayWindow:
        """The review day `now` falls in (by default the clock's now)."""
        return scheduler.review_day(now or self.now(), self.zone(), self.config.day_starts_at_hour)
