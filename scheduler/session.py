"""Session building, pure: day boundaries, the order of today's cards, backlog postponing.

The storage layer fetches a bounded number of candidates through indexes (due reviews in
order of lowest retrievability, new cards in creation order); this module turns them into
today's queue: reviews first, new cards spread evenly among them, one card per unit (its
siblings are buried for the day once it is shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from scheduler.policy import require_utc, retention_loss


@dataclass(frozen=True, slots=True)
class Candidate:
    card_id: int
    unit_id: int


@dataclass(frozen=True, slots=True)
class DayWindow:
    """The review day containing `now`: [start, end) in UTC."""

    start: datetime
    end: datetime


def review_day(now: datetime, tz: tzinfo, starts_at_hour: int) -> DayWindow:
    """The review day that contains `now`, where a day starts at `starts_at_hour` local time in `tz`."""
    require_utc(now)
    local = now.astimezone(tz)
    shifted = local - timedelta(hours=starts_at_hour)
    day = shifted.date()
    start_local = datetime(day.year, day.month, day.day, starts_at_hour, tzinfo=tz)
    next_day = day + timedelta(days=1)
    end_local = datetime(next_day.year, next_day.month, next_day.day, starts_at_hour, tzinfo=tz)
    return DayWindow(start_local.astimezone(UTC), end_local.astimezone(UTC))


def _one_per_unit(cards: Iterable[Candidate], seen: set[int], limit: int) -> list[Candidate]:
    chosen: list[Candidate] = []
    for c in cards:
        if len(chosen) >= limit:
            break
        if c.unit_id in seen:
            continue
        seen.add(c.unit_id)
        chosen.append(c)
    return chosen


def build_queue(
    reviews: Sequence[Candidate],
    new: Sequence[Candidate],
    *,
    review_limit: int,
    new_limit: int,
    exclude_units: Iterable[int] = (),
) -> list[Candidate]:
    """Today's order: `reviews` (already lowest-retrievability first) up to `review_limit`, with up
    to `new_limit` new cards interleaved evenly; at most one card per unit."""
    seen = set(exclude_units)
    due = _one_per_unit(reviews, seen, max(0, review_limit))
    fresh = _one_per_unit(new, seen, max(0, new_limit))
    if not due:
        return fresh
    if not fresh:
        return due
    out: list[Candidate] = []
    gap = (len(due) + len(fresh)) / len(fresh)  # one new card every `gap` cards
    next_new = gap / 2
    ri = ni = 0
    while ri < len(due) or ni < len(fresh):
        position = len(out) + 1
        if ni < len(fresh) and (position >= next_new or ri >= len(due)):
            out.append(fresh[ni])
            ni += 1
            next_new += gap
        else:
            out.append(due[ri])
            ri += 1
    return out


@dataclass(frozen=True, slots=True)
class Overdue:
    card_id: int
    stability: float
    elapsed_days: float  # days since the last review


def postpone_order(cards: Sequence[Overdue], delay_days: float, parameters: Sequence[float]) -> list[int]:
    """Overdue card ids, the ones that lose least recall by waiting `delay_days` first."""
    return [
        c.card_id
        for c in sorted(
            cards,
            key=lambda c: (retention_loss(c.stability, c.elapsed_days, delay_days, parameters), c.card_id),
        )
    ]
