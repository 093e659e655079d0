"""Today's session through the real services: cards follow units, limits, burying, order, day boundary."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from test_review_support import add_units, graduate, prepare, q, session_ids

from core.domain.card import Card
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.review import cards as review_repo
from core.storage.review import writes as review_writes
from scheduler import REVIEW, retrievability


def now_of(clock: FixedClock) -> int:
    return int(clock.now().timestamp())


def test_cards_follow_the_unit_status(services: Services, clock: FixedClock) -> None:
    prepare(services)
    [u1, u2] = add_units(2, 2, now=now_of(clock), confirm=False)
    assert q("SELECT COUNT(*) FROM card") == [(0,)]  # proposals have no cards
    assert services.curation.accept(u1)
    assert q("SELECT queue, COUNT(*) FROM card GROUP BY queue") == [(0, 2)]
    assert services.curation.reject(u1)
    assert q("SELECT queue, COUNT(*) FROM card GROUP BY queue") == [(-3, 2)]
    assert services.undo.undo(Scope.CURATION).unit_id == u1  # back to confirmed: the same cards come back
    assert q("SELECT queue, COUNT(*) FROM card GROUP BY queue") == [(0, 2)]
    assert services.curation.accept(u2)
    assert q("SELECT COUNT(*) FROM card") == [(4,)]


def test_new_card_limit_and_next_day(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, new_per_day=3)
    add_units(10, 1, now=now_of(clock))
    seen = []
    while (item := services.review.next_card()) is not None:
        assert item.card.state_label in ("new", "learning")
        services.review.answer(item.card.id, 4)  # easy: straight to review, no learning steps
        seen.append(item.card.id)
    assert len(seen) == 3 and services.review.summary().new_done == 3
    clock.advance(days=1)
    assert services.review.summary().new_left == 3  # a new day, three more


def test_review_cap(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, new_per_day=50, max_reviews_per_day=4)
    add_units(12, 1, now=now_of(clock))
    for cid in session_ids(services):
        services.review.answer(cid, 4)
    clock.advance(days=60)
    s = services.review.start_session()
    assert (s.reviews_left, s.new_left) == (4, 0)
    assert s.overdue_backlog == 8  # the cap leaves 8 overdue cards for later


def test_siblings_are_buried_for_the_day(services: Services, clock: FixedClock) -> None:
    prepare(services)
    [unit] = add_units(1, 3, now=now_of(clock))
    first = services.review.next_card()
    assert first is not None
    result = services.review.answer(first.card.id, 4)
    assert result.buried_siblings == 2
    assert services.review.next_card() is None  # the other two questions wait
    assert q("SELECT COUNT(*) FROM card WHERE unit_id = ? AND queue = -2", unit) == [(2,)]
    clock.advance(days=1)
    nxt = services.review.next_card()
    assert nxt is not None and nxt.card.id != first.card.id and nxt.unit_id == unit
    assert q("SELECT COUNT(*) FROM card WHERE queue = -2") == [(0,)]


def test_reviews_come_lowest_retrievability_first(services: Services, clock: FixedClock) -> None:
    """Hundreds of review cards with random memory states: the session's order is exactly the
    order of retrievability computed card by card (ties by id), whatever the buckets do."""
    prepare(services)
    services.config = replace(services.config, new_per_day=0, max_reviews_per_day=60)
    add_units(400, 1, now=now_of(clock))
    rng = random.Random(5)
    t = now_of(clock)
    rows = []
    for cid in [r[0] for r in q("SELECT id FROM card")]:
        row = review_repo.get_card(int(cid))  # type: ignore[arg-type]
        assert row is not None
        s = rng.choice([0.5, 3.0, 11.0, 40.0, 41.0, 200.0, 900.0]) * rng.uniform(0.8, 1.25)
        last = t - int(s * 86400 * rng.uniform(0.3, 3.0))
        due = last + int(s * 86400 * rng.uniform(0.9, 1.1))
        rows.append(
            replace(row, state=REVIEW, stability=s, difficulty=5.0, last_review=last, due=due, reps=3)
        )
    review_writes.update_cards("setup", rows, t)
    end = int(services.review.day().end.timestamp())
    now = clock.now()

    def r_of(row: Card) -> float:
        assert row.last_review is not None
        return retrievability(row.stability, datetime.fromtimestamp(row.last_review, UTC), now)

    due = [r for r in rows if r.due < end]
    assert len(due) > 100
    expected = [r.id for r in sorted(due, key=lambda r: (r_of(r), r.id))][:60]
    got = session_ids(services)
    assert got == expected
    values = [r_of(next(r for r in rows if r.id == cid)) for cid in got]
    assert values == sorted(values)


def test_day_boundary_is_four_in_the_morning_local(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.review.tz = ZoneInfo("Europe/Berlin")  # UTC+1 in November: 04:00 local = 03:00 UTC
    services.config = replace(services.config, new_per_day=2)
    add_units(6, 1, now=now_of(clock))
    clock.set(datetime(2026, 11, 3, 2, 59, tzinfo=UTC))  # 03:59 local: still Nov 2's review day
    for _ in range(2):
        item = services.review.next_card()
        assert item is not None
        services.review.answer(item.card.id, 4)
    assert services.review.next_card() is None
    assert services.review.summary().day_end == int(datetime(2026, 11, 3, 3, 0, tzinfo=UTC).timestamp())
    clock.set(datetime(2026, 11, 3, 3, 0, tzinfo=UTC))  # 04:00 local: a new day
    assert services.review.summary().new_left == 2
    assert services.review.next_card() is not None


def test_learning_cards_come_back_when_due(services: Services, clock: FixedClock) -> None:
    prepare(services)
    add_units(1, 1, now=now_of(clock))
    item = services.review.next_card()
    assert item is not None and item.intervals[1] == "1m" and item.intervals[3] == "10m"
    result = services.review.answer(item.card.id, 3)
    assert result.interval == "10m" and result.card.state_label == "learning"
    s = services.review.summary()
    # due within 20 minutes and nothing else left: shown early, so it is left in this sitting
    assert (s.learning_due, s.learning_later) == (1, 0) and not s.finished
    assert s.next_learning_at == now_of(clock) + 600
    clock.advance(minutes=5)
    again = services.review.next_card()
    assert again is not None and again.card.id == item.card.id


@pytest.mark.parametrize("action", ["suspend", "bury"])
def test_suspend_and_bury_take_a_card_out(services: Services, clock: FixedClock, action: str) -> None:
    prepare(services)
    add_units(2, 1, now=now_of(clock))
    first = services.review.next_card()
    assert first is not None
    assert getattr(services.review, action)(first.card.id)
    second = services.review.next_card()
    assert second is not None and second.card.id != first.card.id
    services.review.answer(second.card.id, 4)
    assert services.review.next_card() is None
    if action == "suspend":
        assert [c.id for c in services.review.suspended()] == [first.card.id]
        assert services.review.unsuspend(first.card.id)
        services.review.start_session()
        back = services.review.next_card()
        assert back is not None and back.card.id == first.card.id
    else:
        clock.advance(days=1)
        back = services.review.next_card()
        assert back is not None and back.card.id == first.card.id


def test_reviews_and_new_are_interleaved(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, new_per_day=6)
    first = add_units(6, 1, now=now_of(clock))
    for cid in session_ids(services):
        graduate(services, clock, cid)
    assert len(first) == 6
    clock.advance(days=30)
    add_units(3, 1, now=now_of(clock))
    order = [review_repo.get_card(c) for c in session_ids(services)]
    kinds = ["new" if r is not None and r.state == 0 else "review" for r in order]
    assert kinds.count("new") == 3 and kinds.count("review") == 6
    assert kinds[0] == "review" and kinds != sorted(kinds)  # new cards spread, reviews lead


def test_answer_unknown_card_is_a_clear_error(services: Services, clock: FixedClock) -> None:
    prepare(services)
    from core.services.review.service import UnknownCard

    with pytest.raises(UnknownCard, match="does not exist"):
        services.review.answer(999, 3)
    assert services.review.next_card() is None and services.review.summary().finished
    assert services.review.card(999) is None
    assert not services.undo.can_undo(Scope.REVIEW)  # nothing was written: no answer to take back


@pytest.mark.parametrize(
    ("seed", "limit", "spread"),
    [
        (1, 5, "narrow"),
        (2, 50, "narrow"),
        (3, 120, "wide"),
        (4, 400, "wide"),
        (5, 30, "ties"),
        (6, 40, "early"),
    ],
)
def test_bucketed_candidates_equal_a_full_sort(
    services: Services, clock: FixedClock, seed: int, limit: int, spread: str
) -> None:
    """The index walk returns exactly what sorting every due card by retrievability returns:
    narrow overdue bands, early-due (pinned-like) and postponed cards, identical timestamps."""
    from core.storage.review import queue as review_queue

    prepare(services)
    add_units(300, 1, now=now_of(clock))
    rng = random.Random(seed)
    t = now_of(clock)
    rows = []
    for cid in [int(r[0]) for r in q("SELECT id FROM card")]:  # type: ignore[call-overload]
        row = review_repo.get_card(cid)
        assert row is not None
        s = 10.0 if spread == "ties" else rng.lognormvariate(3, 0.4)  # dense buckets: round 2 matters
        phase = {"narrow": rng.uniform(0.95, 1.03), "early": rng.uniform(0.25, 0.9)}.get(
            spread, rng.uniform(0.1, 4.0)
        )
        last = t - 86400 if spread == "ties" else t - int(phase * s * 86400)
        factor = (
            0.2 if spread == "early" else rng.choice([0.2, 1.0, 1.0, 1.0, 3.0])
        )  # pinned-like, normal, postponed
        due = last + int(s * 86400 * factor)
        rows.append(
            replace(row, state=REVIEW, stability=s, difficulty=5.0, last_review=last, due=due, reps=2)
        )
    review_writes.update_cards("setup", rows, t)
    end = t + 3600
    due = [r for r in rows if r.due < end]
    expected = [r.id for r in sorted(due, key=lambda r: (-(t - r.last_review) / r.stability, r.id))][:limit]  # type: ignore[operator]
    got = [cid for cid, _ in review_queue.due_review_candidates(end, t, limit)]
    assert got == expected


def test_new_settings_reach_the_review_service(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, new_per_day=1)  # what the settings screen does
    assert services.review.config.new_per_day == 1 and services.stats.config.new_per_day == 1
    add_units(3, 1, now=now_of(clock))
    assert services.review.start_session().new_left == 1


def test_golden_intervals_through_the_services(services: Services, clock: FixedClock) -> None:
    """py-fsrs' golden sequence, answered through the real service and database (fuzz off)."""
    prepare(services)
    add_units(1, 1, now=now_of(clock))
    [cid] = [int(r[0]) for r in q("SELECT id FROM card")]  # type: ignore[call-overload]
    days = []
    for rating in (3, 3, 3, 3, 3, 3, 1, 1, 3, 3, 3, 3, 3):
        result = services.review.answer(cid, rating)
        assert result.card.last_review is not None
        days.append((result.card.due - result.card.last_review) // 86400)
        clock.set(datetime.fromtimestamp(result.card.due, UTC))
    assert days == [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]
    assert q("SELECT reps, lapses FROM card") == [(13, 1)]
    assert q("SELECT COUNT(*) FROM review_log") == [(13,)]


def test_many_siblings_still_fill_the_daily_cap(services: Services, clock: FixedClock) -> None:
    """Units with many due questions: one card per unit, and the session still reaches its cap."""
    prepare(services)
    services.config = replace(services.config, new_per_day=30, max_reviews_per_day=30)
    add_units(40, 6, now=now_of(clock))  # 240 new cards, 6 per unit
    assert len(session_ids(services)) == 30  # 30 new, from 30 different units
    t = now_of(clock)
    rows = [
        replace(
            r, state=REVIEW, stability=5.0, difficulty=5.0, last_review=t - 9 * 86400, due=t - 86400, reps=1
        )
        for r in (review_repo.get_card(int(c)) for (c,) in q("SELECT id FROM card"))  # type: ignore[call-overload]
        if r is not None
    ]
    review_writes.update_cards("setup", rows, t)
    ids = session_ids(services)
    units = {review_repo.get_card(c).unit_id for c in ids}  # type: ignore[union-attr]
    assert len(ids) == 30 and len(units) == 30


def test_candidates_when_index_order_is_the_reverse_of_retrievability(
    services: Services, clock: FixedClock
) -> None:
    """One stability bucket, every card exactly one day past t90: the index hands out the
    largest stabilities (highest R) first, so round 2 has to find the real lowest-R cards."""
    from core.storage.review import queue as review_queue
    from core.storage.review.models import stability_bucket

    prepare(services)
    add_units(300, 1, now=now_of(clock))
    t = now_of(clock)
    rng = random.Random(8)
    rows = []
    for cid in [int(r[0]) for r in q("SELECT id FROM card")]:  # type: ignore[call-overload]
        row = review_repo.get_card(cid)
        assert row is not None
        s = rng.uniform(10.4, 11.3)  # one eighth-octave bucket: [2^(27/8), 2^(28/8))
        last = t - 86400 - round(s * 86400)
        rows.append(
            replace(row, state=REVIEW, stability=s, difficulty=5.0, last_review=last, due=t - 86400, reps=2)
        )
    assert len({stability_bucket(r.stability) for r in rows}) == 1
    review_writes.update_cards("setup", rows, t)
    expected = [r.id for r in sorted(rows, key=lambda r: (-(t - r.last_review) / r.stability, r.id))][:20]  # type: ignore[operator]
    assert [cid for cid, _ in review_queue.due_review_candidates(t + 3600, t, 20)] == expected


def test_the_session_preview_counts_ended_burials_and_writes_nothing(
    services: Services, clock: FixedClock
) -> None:
    prepare(services)
    add_units(2, 2, now=now_of(clock))  # two units of two sibling questions each
    item = services.review.next_card()
    assert item is not None
    services.review.answer(item.card.id, 4)  # its sibling is buried until tomorrow
    buried = q("SELECT COUNT(*) FROM card WHERE queue = -2")
    assert buried == [(1,)]
    clock.advance(days=1)
    preview = services.review.preview_session()
    assert q("SELECT COUNT(*) FROM card WHERE queue = -2") == buried  # nothing written
    started = services.review.start_session()  # what `memoryrush review` will show
    assert q("SELECT COUNT(*) FROM card WHERE queue = -2") == [(0,)]
    # one new card of each unit: the first unit's (unburied) sibling, the second unit's first
    assert (preview.new_left, preview.reviews_left) == (started.new_left, started.reviews_left) == (2, 0)
