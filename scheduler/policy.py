"""FSRS as pure functions: `review(state, rating, now, policy) -> (new state, log)`.

Wraps py-fsrs 6.3 (`fsrs.Scheduler`) without its global random fuzz: fsrs computes the
unfuzzed interval, and this module applies fuzz itself from an explicit `random.Random`
(seeded in tests, or `Policy.fuzz=False`) and, when a load function is given, picks the day
inside the fuzz range with the fewest cards due (load balancing).

Times are `datetime` in `datetime.timezone.utc` only; anything else is a ValueError. A clock
that went backwards is not obeyed: the effective review time is never earlier than the card's
last review, and the log says by how much the clock was behind.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache

import fsrs

from core.domain.card import Card
from core.domain.review import Rating, State

NEW, LEARNING, REVIEW, RELEARNING = State.NEW, State.LEARNING, State.REVIEW, State.RELEARNING
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)
FUZZ_RANGES = fsrs.scheduler.FUZZ_RANGES

# load(first_day_offset, last_day_offset) -> cards already due on each day offset (inclusive)
LoadFn = Callable[[int, int], Sequence[float]]


@dataclass(frozen=True, slots=True)
class CardState:
    """A card's memory and schedule: the pure policy's input and output, fsrs' `Card` with our
    counts (UTC datetimes, as fsrs takes them). `state` is NEW (never reviewed) or an fsrs state.
    Built from the domain card, and written back onto it, here only (`of`, `onto`)."""

    card_id: int
    state: int = NEW
    step: int | None = None
    stability: float | None = None
    difficulty: float | None = None
    due: datetime | None = None
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0

    @classmethod
    def of(cls, card: Card) -> CardState:
        """The memory and schedule of a card as kept (epoch seconds become UTC datetimes)."""
        return cls(
            card_id=card.id,
            state=card.state,
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=_utc(card.due),
            last_review=_utc(card.last_review),
            reps=card.reps,
            lapses=card.lapses,
        )

    def onto(self, card: Card) -> Card:
        """`card` with this memory and schedule (its flags and ids as they are)."""
        if self.due is None:
            raise ValueError(f"card {self.card_id}: a scheduled state has a due time")
        return replace(
            card,
            state=self.state,
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=int(self.due.timestamp()),
            last_review=None if self.last_review is None else int(self.last_review.timestamp()),
            reps=self.reps,
            lapses=self.lapses,
        )


def _utc(epoch: int | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """The review log entry of one answer."""

    card_id: int
    rating: int
    reviewed_at: datetime  # effective time (never before the previous review)
    state_before: int
    elapsed_days: int  # whole days since the previous review (0 for a new card)
    scheduled_days: int  # whole days until the new due time
    clock_skew_s: int = 0  # how far the wall clock was behind the last review (0 = fine)


@dataclass(frozen=True, slots=True)
class Policy:
    """Scheduling settings. `learning_steps`/`relearning_steps` in minutes."""

    desired_retention: float = 0.90
    parameters: tuple[float, ...] = DEFAULT_PARAMETERS
    learning_steps: tuple[float, ...] = (1.0, 10.0)
    relearning_steps: tuple[float, ...] = (10.0,)
    maximum_interval: int = 36500
    fuzz: bool = True

    def with_retention(self, retention: float) -> Policy:
        return replace(self, desired_retention=retention)


def require_utc(when: datetime) -> datetime:
    if when.tzinfo is None or when.utcoffset() != timedelta(0) or when.tzinfo != UTC:
        raise ValueError(f"datetimes must be timezone-aware UTC (datetime.timezone.utc), got {when!r}")
    return when


@lru_cache(maxsize=32)
def _fsrs(
    parameters: tuple[float, ...],
    retention: float,
    learning: tuple[float, ...],
    relearning: tuple[float, ...],
    maximum_interval: int,
) -> fsrs.Scheduler:
    return fsrs.Scheduler(
        parameters=parameters,
        desired_retention=retention,
        learning_steps=tuple(timedelta(minutes=m) for m in learning),
        relearning_steps=tuple(timedelta(minutes=m) for m in relearning),
        maximum_interval=maximum_interval,
        enable_fuzzing=False,
    )


def fsrs_scheduler(policy: Policy) -> fsrs.Scheduler:
    """The (cached, unfuzzed) fsrs.Scheduler behind a policy."""
    return _fsrs(
        tuple(policy.parameters),
        policy.desired_retention,
        tuple(policy.learning_steps),
        tuple(policy.relearning_steps),
        policy.maximum_interval,
    )


def decay_factor(parameters: Sequence[float] = DEFAULT_PARAMETERS) -> tuple[float, float]:
    """(DECAY, FACTOR) of the forgetting curve R = (1 + FACTOR * t / S) ** DECAY."""
    decay = -parameters[20]
    return decay, 0.9 ** (1 / decay) - 1


def retrievability(
    stability: float | None,
    last_review: datetime | None,
    now: datetime,
    parameters: Sequence[float] = DEFAULT_PARAMETERS,
) -> float:
    """Probability of recall now (0 for a card never reviewed): fsrs' forgetting curve at the
    elapsed time in fractional days (fsrs itself rounds down to whole days when it schedules)."""
    if stability is None or last_review is None or stability <= 0:
        return 0.0
    decay, factor = decay_factor(parameters)
    days = max(0.0, (now - last_review).total_seconds() / 86400)
    return float((1 + factor * days / stability) ** decay)


def days_per_stability(retention: float, parameters: Sequence[float] = DEFAULT_PARAMETERS) -> float:
    """Days since the last review, per day of stability, at which R falls to `retention`: the
    forgetting curve solved for t / S (1 at 0.9 by construction). SQL filters and re-timings
    multiply a card's S by it."""
    decay, factor = decay_factor(parameters)
    return float((retention ** (1 / decay) - 1) / factor)


def interval_for(stability: float, retention: float, parameters: Sequence[float] = DEFAULT_PARAMETERS) -> int:
    """Whole days until R falls to `retention` (≥ 1), as fsrs computes it."""
    return max(1, round(stability * days_per_stability(retention, parameters)))


def fuzz_range(interval_days: int, maximum_interval: int = 36500) -> tuple[int, int]:
    """The days a fuzzed interval may land on (fsrs' own range); (ivl, ivl) below 2.5 days."""
    if interval_days < 2.5:
        return interval_days, interval_days
    delta = 1.0
    for r in FUZZ_RANGES:
        delta += r["factor"] * max(min(float(interval_days), r["end"]) - r["start"], 0.0)
    lo = max(2, round(interval_days - delta))
    hi = min(round(interval_days + delta), maximum_interval)
    return min(lo, hi), hi


def choose_day(lo: int, hi: int, rng: random.Random, load: Sequence[float] | None = None) -> int:
    """A day in [lo, hi]: the least loaded one (ties at random) when `load` is given, else uniform."""
    if lo >= hi:
        return lo
    if load is None:
        return rng.randint(lo, hi)
    fewest = min(load)
    best = [lo + i for i, n in enumerate(load) if n == fewest]
    return best[0] if len(best) == 1 else rng.choice(best)


def _to_fsrs(card: CardState) -> fsrs.Card:
    if card.state == NEW:
        return fsrs.Card(card_id=card.card_id, state=fsrs.State.Learning, step=0, due=card.due or _EPOCH)
    return fsrs.Card(
        card_id=card.card_id,
        state=fsrs.State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due or _EPOCH,
        last_review=card.last_review,
    )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def effective_time(card: CardState, now: datetime) -> tuple[datetime, int]:
    """(time the review counts at, seconds the clock was behind the last review)."""
    require_utc(now)
    if card.last_review is not None and now < card.last_review:
        return card.last_review, int((card.last_review - now).total_seconds())
    return now, 0


@dataclass(frozen=True, slots=True)
class Planned:
    """An answer as fsrs schedules it, before fuzz picks the day (`settle` finishes it)."""

    card: CardState
    grade: Rating
    when: datetime  # the effective review time
    clock_skew_s: int
    after: fsrs.Card  # fsrs' unfuzzed result
    fuzz_days: tuple[int, int] | None  # the day offsets the due date may land on, when fuzzed


def plan(card: CardState, rating: int, now: datetime, policy: Policy) -> Planned:
    """Answer `card` with `rating` at `now`, up to the choice of day. Pure."""
    grade = Rating(rating)
    when, skew = effective_time(card, now)
    after, _ = fsrs_scheduler(policy).review_card(
        _to_fsrs(card), fsrs.Rating(int(grade)), review_datetime=when
    )
    fuzz_days = None
    if policy.fuzz and after.state == fsrs.State.Review:
        lo, hi = fuzz_range((after.due - when).days, policy.maximum_interval)
        fuzz_days = (lo, hi) if hi > lo else None
    return Planned(card, grade, when, skew, after, fuzz_days)


def settle(
    planned: Planned, *, rng: random.Random | None = None, load: Sequence[float] | None = None
) -> tuple[CardState, ReviewRecord]:
    """The new state and the log of a planned answer. With fuzz days, the due day is the one
    with the fewest cards already due (`load`: a count per day offset, lo..hi), or else a
    uniform pick from `rng`."""
    card, when, after = planned.card, planned.when, planned.after
    due = after.due
    if planned.fuzz_days is not None:
        lo, hi = planned.fuzz_days
        due = when + timedelta(days=choose_day(lo, hi, rng or random.Random(), load))
    lapse = card.state == REVIEW and planned.grade == Rating.AGAIN
    new_state = CardState(
        card_id=card.card_id,
        state=int(after.state),
        step=after.step,
        stability=after.stability,
        difficulty=after.difficulty,
        due=due,
        last_review=when,
        reps=card.reps + 1,
        lapses=card.lapses + (1 if lapse else 0),
    )
    elapsed = 0 if card.last_review is None else (when - card.last_review).days
    log = ReviewRecord(
        card_id=card.card_id,
        rating=int(planned.grade),
        reviewed_at=when,
        state_before=card.state,
        elapsed_days=elapsed,
        scheduled_days=max(0, (due - when).days),
        clock_skew_s=planned.clock_skew_s,
    )
    return new_state, log


def review(
    card: CardState,
    rating: int,
    now: datetime,
    policy: Policy,
    *,
    rng: random.Random | None = None,
    load: LoadFn | None = None,
) -> tuple[CardState, ReviewRecord]:
    """Answer `card` with `rating` at `now`: `plan`, then `settle`. Pure: no clock, no I/O, no
    global random. `load(lo, hi)`, when given, counts the cards due on each fuzz day."""
    planned = plan(card, rating, now, policy)
    counts = load(*planned.fuzz_days) if load is not None and planned.fuzz_days is not None else None
    return settle(planned, rng=rng, load=counts)


def preview(card: CardState, now: datetime, policy: Policy) -> dict[int, timedelta]:
    """What each rating would schedule (unfuzzed), for the answer buttons."""
    when, _ = effective_time(card, now)
    plain = replace(policy, fuzz=False)
    out: dict[int, timedelta] = {}
    for grade in Rating:
        new, _ = review(card, grade, when, plain)
        assert new.due is not None
        out[int(grade)] = new.due - when
    return out


def is_leech(lapses: int, threshold: int) -> bool:
    """A leech at `threshold` lapses, and again every half threshold after (as Anki)."""
    if lapses < threshold:
        return False
    return (lapses - threshold) % max(1, threshold // 2) == 0


def retention_loss(
    stability: float, elapsed_days: float, delay_days: float, parameters: Sequence[float]
) -> float:
    """How much recall probability a card loses if its review waits `delay_days` more."""
    decay, factor = decay_factor(parameters)
    s = max(stability, 1e-3)
    now_r = (1 + factor * max(0.0, elapsed_days) / s) ** decay
    later = (1 + factor * max(0.0, elapsed_days + delay_days) / s) ** decay
    return float(now_r - later)


def format_interval(delta: timedelta) -> str:
    """'10m', '3h', '4d', '2.5mo', '1.2y' for the answer buttons."""
    secs = delta.total_seconds()
    if secs < 3600:
        return f"{max(1, math.floor(secs / 60 + 0.5))}m"
    if secs < 86400:
        return f"{math.floor(secs / 3600 + 0.5)}h"
    days = secs / 86400
    if days < 30:
        return f"{math.floor(days + 0.5)}d"
    if days < 365:
        return f"{days / 30:.1f}mo"
    return f"{days / 365:.1f}y"
