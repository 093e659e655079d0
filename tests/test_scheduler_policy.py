"""The pure scheduler: golden intervals against fsrs itself, UTC only, clock skew, fuzz and load balancing."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import fsrs
import pytest

from scheduler import (
    LEARNING,
    NEW,
    RELEARNING,
    REVIEW,
    CardState,
    Policy,
    Rating,
    choose_day,
    fuzz_range,
    interval_for,
    is_leech,
    preview,
    retrievability,
    review,
)

T0 = datetime(2022, 11, 29, 12, 30, tzinfo=UTC)
PLAIN = Policy(fuzz=False)
# py-fsrs' own golden sequence (tests/test_basic.py): review each time the card is due.
RATINGS = (3, 3, 3, 3, 3, 3, 1, 1, 3, 3, 3, 3, 3)
GOLDEN_DAYS = [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]


def run(ratings: tuple[int, ...], policy: Policy = PLAIN) -> tuple[list[int], CardState]:
    card = CardState(card_id=1, due=T0)
    days = []
    for r in ratings:
        assert card.due is not None
        card, _log = review(card, r, card.due, policy)
        assert card.due is not None and card.last_review is not None
        days.append((card.due - card.last_review).days)
    return days, card


def fsrs_run(ratings: tuple[int, ...]) -> tuple[list[int], fsrs.Card]:
    """The same ratings given to fsrs itself (fuzz off): the days between answers, the last card."""
    ref = fsrs.Scheduler(enable_fuzzing=False)
    c = fsrs.Card(card_id=1, due=T0)
    ref_days = []
    for r in ratings:
        c, _ = ref.review_card(c, fsrs.Rating(r), c.due)
        ref_days.append((c.due - c.last_review).days)
    return ref_days, c


def test_golden_interval_sequence_matches_pinned_days_and_fsrs() -> None:
    days, card = run(RATINGS)
    assert days == GOLDEN_DAYS
    ref_days, c = fsrs_run(RATINGS)
    assert days == ref_days
    assert card.stability == pytest.approx(c.stability) and card.difficulty == pytest.approx(c.difficulty)
    assert card.reps == len(RATINGS) and card.lapses == 1  # one Again from Review is a lapse


@pytest.mark.parametrize(
    ("ratings", "expected"),
    [
        ((4,), [8]),  # easy on a new card graduates at once
        ((3, 3, 4, 4), [0, 2, 19, 136]),
        ((1, 1, 3, 3, 2), [0, 0, 0, 1, 1]),
        ((3, 3, 2, 2, 2), [0, 2, 8, 19, 36]),
    ],
)
def test_more_golden_sequences(ratings: tuple[int, ...], expected: list[int]) -> None:
    """Pinned days (fsrs 6.3 default parameters, fuzz off), also checked against fsrs itself."""
    assert run(ratings)[0] == expected
    assert fsrs_run(ratings)[0] == expected


def test_states_follow_the_learning_steps() -> None:
    card = CardState(card_id=5)
    assert card.state == NEW
    card, log = review(card, Rating.GOOD, T0, PLAIN)
    assert card.state == LEARNING and card.due == T0 + timedelta(minutes=10) and log.state_before == NEW
    card, _ = review(card, Rating.GOOD, card.due, PLAIN)
    assert card.state == REVIEW
    assert card.due is not None
    card, log = review(card, Rating.AGAIN, card.due, PLAIN)
    assert card.state == RELEARNING and card.lapses == 1 and log.state_before == REVIEW


def test_only_utc_datetimes_are_accepted() -> None:
    card = CardState(card_id=1)
    with pytest.raises(ValueError, match="UTC"):
        review(card, Rating.GOOD, datetime(2026, 1, 1, 12), PLAIN)
    with pytest.raises(ValueError, match="UTC"):
        review(card, Rating.GOOD, datetime(2026, 1, 1, 12, tzinfo=ZoneInfo("Europe/Berlin")), PLAIN)
    with pytest.raises(ValueError, match="UTC"):
        review(card, Rating.GOOD, datetime(2026, 1, 1, 12, tzinfo=ZoneInfo("UTC")), PLAIN)  # not timezone.utc
    assert review(card, Rating.GOOD, datetime(2026, 1, 1, 12, tzinfo=UTC), PLAIN)[1].reviewed_at.tzinfo is UTC


def test_clock_going_backwards_is_not_obeyed() -> None:
    card, _ = review(CardState(card_id=1), Rating.GOOD, T0, PLAIN)
    earlier = T0 - timedelta(hours=3)
    after, log = review(card, Rating.GOOD, earlier, PLAIN)
    assert log.reviewed_at == T0 and after.last_review == T0  # never before the last review
    assert log.clock_skew_s == 3 * 3600
    same, _ = review(card, Rating.GOOD, T0, PLAIN)
    assert after == same


def test_review_is_pure_and_leaves_the_input_alone() -> None:
    card = CardState(card_id=1, due=T0)
    a = review(card, Rating.HARD, T0, PLAIN)
    b = review(card, Rating.HARD, T0, PLAIN)
    assert a == b and card == CardState(card_id=1, due=T0)


def test_fuzz_is_seeded_and_stays_in_fsrs_range() -> None:
    _, mature = run((3, 3, 3, 3))
    assert mature.due is not None
    fuzzy = Policy(fuzz=True)
    plain_days = (review(mature, Rating.GOOD, mature.due, PLAIN)[0].due - mature.due).days  # type: ignore[operator]
    lo, hi = fuzz_range(plain_days)
    seen = set()
    for seed in range(40):
        new, _ = review(mature, Rating.GOOD, mature.due, fuzzy, rng=random.Random(seed))
        assert new.due is not None
        d = (new.due - mature.due).days
        assert lo <= d <= hi
        seen.add(d)
        again, _ = review(mature, Rating.GOOD, mature.due, fuzzy, rng=random.Random(seed))
        assert again == new  # same seed, same day
    assert len(seen) > 1


def test_load_balancing_picks_the_least_loaded_day_in_the_fuzz_range() -> None:
    _, mature = run((3, 3, 3, 3))
    assert mature.due is not None
    plain_days = (review(mature, Rating.GOOD, mature.due, PLAIN)[0].due - mature.due).days  # type: ignore[operator]
    lo, hi = fuzz_range(plain_days)
    assert hi - lo >= 4
    quiet = lo + 2
    asked: list[tuple[int, int]] = []

    def load(a: int, b: int) -> list[int]:
        asked.append((a, b))
        return [1 if a + i == quiet else 50 for i in range(b - a + 1)]

    new, log = review(mature, Rating.GOOD, mature.due, Policy(fuzz=True), rng=random.Random(1), load=load)
    assert asked == [(lo, hi)]
    assert new.due is not None and (new.due - mature.due).days == quiet == log.scheduled_days
    # with fuzz off there is no balancing: the unfuzzed day
    plain, _ = review(mature, Rating.GOOD, mature.due, PLAIN, load=load)
    assert plain.due is not None and (plain.due - mature.due).days == plain_days


def test_choose_day_breaks_ties_among_the_least_loaded() -> None:
    rng = random.Random(0)
    picks = {choose_day(10, 14, rng, [3, 1, 5, 1, 9]) for _ in range(50)}
    assert picks == {11, 13}
    assert choose_day(7, 7, rng, [100]) == 7


def test_pinned_retention_gives_shorter_intervals() -> None:
    assert interval_for(30.0, 0.97) < interval_for(30.0, 0.90) < interval_for(30.0, 0.80)
    _, card = run((3, 3, 3))
    assert card.due is not None
    normal, _ = review(card, Rating.GOOD, card.due, PLAIN)
    pinned, _ = review(card, Rating.GOOD, card.due, PLAIN.with_retention(0.97))
    assert pinned.due is not None and normal.due is not None and pinned.due < normal.due


def test_retrievability_and_preview() -> None:
    _, card = run((3, 3))
    assert card.last_review is not None and card.stability is not None
    assert retrievability(card.stability, card.last_review, card.last_review) == 1.0
    at_s = card.last_review + timedelta(days=round(card.stability))
    assert retrievability(card.stability, card.last_review, at_s) == pytest.approx(0.9, abs=0.02)
    assert retrievability(None, None, T0) == 0.0
    labels = preview(CardState(card_id=1), T0, PLAIN)
    assert labels[1] == timedelta(minutes=1) and labels[3] == timedelta(minutes=10)
    assert labels[4] >= timedelta(days=1)


def test_leech_threshold_and_repeats() -> None:
    assert [n for n in range(1, 20) if is_leech(n, 8)] == [8, 12, 16]
    assert [n for n in range(1, 6) if is_leech(n, 1)] == [1, 2, 3, 4, 5]
