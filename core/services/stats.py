"""Memory state and statistics for the Stats screen and `memoryrush review --stats`.

svc.stats.summary() -> MemoryStats           # counts, forecast, reviews/day, retention, streak
svc.stats.reviews_by_day(days) -> (DayPoint, ...)   # answers per day, the last `days` days
svc.stats.unit_strengths(limit) -> list[UnitStrength]   # weakest first
svc.stats.card_retrievability(limit) -> list[(card id, unit id, R)]  # weakest first
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import scheduler
from core.domain.review import DayPoint, MemoryStats, Queue, UnitStrength
from core.services.clocked import Clocked
from core.services.review.parameters import forgetting_curve
from core.storage import library as library_repo
from core.storage.review import stats as review_stats

WINDOW_DAYS = 30


@dataclass
class StatsService(Clocked):
    def _label(self, day: scheduler.DayWindow, offset: int) -> str:
        return (day.start.astimezone(self.zone()) + timedelta(days=offset)).date().isoformat()

    def summary(self) -> MemoryStats:
        now = self.now()
        day = self.day(now)
        start, t = int(day.start.timestamp()), int(now.timestamp())
        decay, factor = forgetting_curve()
        by_queue = review_stats.counts_by_queue()
        counts = {q.label: by_queue.get(q, 0) for q in Queue}
        counts["leech"] = review_stats.leech_count()
        due = review_stats.due_per_day(start, WINDOW_DAYS)
        done = review_stats.reviews_per_day(start, WINDOW_DAYS)
        total, passed = review_stats.true_retention(start - (WINDOW_DAYS - 1) * 86400)
        return MemoryStats(
            counts=counts,
            average_retrievability=review_stats.average_retrievability(t, decay, factor),
            forecast=tuple(DayPoint(self._label(day, d), due.get(d, 0)) for d in range(WINDOW_DAYS)),
            reviews_per_day=tuple(
                DayPoint(self._label(day, d), done.get(d, 0)) for d in range(-(WINDOW_DAYS - 1), 1)
            ),
            true_retention=(passed / total) if total else None,
            true_retention_reviews=total,
            streak=self._streak(start),
            total_reviews=review_stats.total_reviews(),
        )

    def units_by_origin(self) -> dict[str, int]:
        """Confirmed units you made ("yours") and those an extractor proposed ("extracted")."""
        return library_repo.count_by_origin("confirmed")

    def reviews_by_day(self, days: int) -> tuple[DayPoint, ...]:
        """Answers per review day over the last `days` days, oldest first (Home's heatmap)."""
        day = self.day(self.now())
        done = review_stats.reviews_per_day(int(day.start.timestamp()), days)
        return tuple(DayPoint(self._label(day, d), done.get(d, 0)) for d in range(-(days - 1), 1))

    def _streak(self, day_start: int) -> int:
        """Consecutive review days ending today (or yesterday, if today has no answers yet)."""
        days = review_stats.active_day_offsets(day_start)
        if not days or days[0] < -1:
            return 0
        streak, expect = 0, days[0]
        for d in days:
            if d != expect:
                break
            streak += 1
            expect -= 1
        return streak

    def unit_strengths(self, limit: int = 1000) -> list[UnitStrength]:
        """Memory strength (mean retrievability now) of confirmed units, weakest first."""
        decay, factor = forgetting_curve()
        rows = review_stats.unit_retrievability(int(self.now().timestamp()), decay, factor, limit)
        return [UnitStrength(i, c, r, n, p) for i, c, r, n, p in rows]

    def card_retrievability(self, limit: int = 1000, offset: int = 0) -> list[tuple[int, int, float]]:
        """(card id, unit id, retrievability now) of reviewed cards, weakest first."""
        decay, factor = forgetting_curve()
        return review_stats.card_retrievability(int(self.now().timestamp()), decay, factor, limit, offset)
