"""Workload shaping, pure: easy days (a load factor per weekday), vacations (days with no
reviews) and moving cards so the load falls where it may.

Load balancing (policy.choose_day) picks the least loaded day of a card's fuzz range; with easy
days it compares `cards due / factor` instead, so a day of factor 0.5 takes about half the
cards of its neighbours, and a vacation day (factor 0) takes none while any other day is in the
range. `rebalance` applies the same rule to cards already scheduled: each card due on a day of
factor < 1 moves, inside its own window, to the day of least weighted load.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import NamedTuple

WEEK = 7
NO_LOAD_CHANGE: tuple[float, ...] = (1.0,) * WEEK  # Monday .. Sunday


@dataclass(frozen=True, slots=True)
class DayRule:
    """How much review a day may take: a factor per weekday (Monday first) and days off."""

    easy_days: tuple[float, ...] = NO_LOAD_CHANGE
    vacations: frozenset[date] = frozenset()

    def factor(self, day: date) -> float:
        if day in self.vacations:
            return 0.0
        return self.easy_days[day.weekday()]


def weighted(counts: Sequence[int], first: date, rule: DayRule) -> list[float]:
    """Cards due per day divided by the day's factor (a day off: infinite), for choose_day.
    When every day of the range is off, the plain counts (a card must land somewhere)."""
    factors = [rule.factor(first + timedelta(days=i)) for i in range(len(counts))]
    if not any(factors):
        return [float(n) for n in counts]
    return [n / f if f > 0 else math.inf for n, f in zip(counts, factors, strict=True)]


class Scheduled(NamedTuple):
    """A review card's due day (an index from today, 0 = today) and the days it may move to.
    (A tuple: easy days make one for each of ~200k cards, a frozen dataclass took 2.4x as long to make.)"""

    card_id: int
    day: int
    lo: int
    hi: int


def window(
    day: int, interval_days: int, fuzz: tuple[int, int], rule: DayRule, today: date
) -> tuple[int, int]:
    """The days a card due on `day` may move to: its fuzz range around the due day (lo..hi are
    the interval's fuzz bounds, policy.fuzz_range), widened past any days off it falls in;
    never before today."""
    lo = max(0, day - (interval_days - fuzz[0]))
    hi = day + (fuzz[1] - interval_days)
    while rule.factor(today + timedelta(days=hi)) == 0 and hi - day < 366:
        hi += 1
    while lo > 0 and rule.factor(today + timedelta(days=lo)) == 0:
        lo -= 1
    return lo, max(hi, lo)


def rebalance(cards: Sequence[Scheduled], load: dict[int, int], rule: DayRule, today: date) -> dict[int, int]:
    """Card id -> new day for the cards that move: those due on a day of factor < 1 go to the
    day of their window with the least weighted load (the nearest to their own day among
    equals, then the earliest), when that is less than their own day's (`load`: cards due per
    day index, all cards, updated as cards move). The factors and counts are lists by day
    index, read once: a card's window is a few list reads, not a date computed per day."""
    horizon = max((c.hi for c in cards), default=-1) + 1
    factors = [rule.factor(today + timedelta(days=i)) for i in range(horizon)]
    counts = [load.get(i, 0) for i in range(horizon)]
    moved: dict[int, int] = {}
    inf = math.inf
    for card in sorted(cards, key=lambda c: (c.day, c.card_id)):
        day, lo = card.day, card.lo
        if factors[day] >= 1:
            continue
        counts[day] -= 1
        # each day's weighted load with this card on it; the least, nearest to `day`, earliest
        loads = [(counts[d] + 1) / factors[d] if factors[d] > 0 else inf for d in range(lo, card.hi + 1)]
        least = min(loads)
        best = min((abs(lo + i - day), lo + i) for i, w in enumerate(loads) if w == least)[1]
        own = loads[day - lo]
        if least < own or own == inf:
            moved[card.card_id] = best
            counts[best] += 1
        else:
            counts[day] += 1
    return moved


def parse_easy_days(text: str) -> tuple[float, ...]:
    """'1 1 1 1 1 0.5 0' (Monday first, 0..1 each) -> factors; ValueError with a sentence."""
    parts = text.replace(",", " ").split()
    if len(parts) != WEEK:
        raise ValueError(f"give seven factors, Monday first (got {len(parts)}): e.g. 1 1 1 1 1 0.5 0.5")
    factors = tuple(float(p) for p in parts)
    if any(not 0 <= f <= 1 for f in factors):
        raise ValueError("each factor is between 0 (no reviews that weekday) and 1 (a full day)")
    if not any(factors):
        raise ValueError("at least one weekday must take reviews")
    return factors


def parse_vacation(text: str) -> tuple[date, date]:
    """'2026-12-24..2026-12-31' (or one day) -> (first, last); ValueError with a sentence."""
    first, _, last = text.strip().partition("..")
    try:
        start = date.fromisoformat(first.strip())
        end = date.fromisoformat(last.strip()) if last else start
    except ValueError:
        raise ValueError("write a vacation as YYYY-MM-DD..YYYY-MM-DD (or one day)") from None
    if end < start:
        raise ValueError("the vacation ends before it starts")
    if (end - start).days > 365:
        raise ValueError("a vacation is at most a year")
    return start, end


def days_of(spans: Sequence[tuple[date, date]]) -> frozenset[date]:
    return frozenset(a + timedelta(days=i) for a, b in spans for i in range((b - a).days + 1))
