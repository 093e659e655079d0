"""Pure session building: the review day boundary, queue order, one card per unit, postponing order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from scheduler import DEFAULT_PARAMETERS, Candidate, Overdue, build_queue, postpone_order, review_day

BERLIN = ZoneInfo("Europe/Berlin")


def test_day_starts_at_four_local_time() -> None:
    # 2026-11-02 is winter time in Berlin (UTC+1): 04:00 local = 03:00 UTC
    before = review_day(datetime(2026, 11, 2, 2, 59, tzinfo=UTC), BERLIN, 4)
    after = review_day(datetime(2026, 11, 2, 3, 0, tzinfo=UTC), BERLIN, 4)
    assert before.end == after.start == datetime(2026, 11, 2, 3, 0, tzinfo=UTC)
    assert before.start == datetime(2026, 11, 1, 3, 0, tzinfo=UTC)
    assert after.end == datetime(2026, 11, 3, 3, 0, tzinfo=UTC)


def test_day_across_a_dst_change_is_23_hours() -> None:
    # Berlin springs forward on 2026-03-29 (02:00 -> 03:00)
    day = review_day(datetime(2026, 3, 28, 12, 0, tzinfo=UTC), BERLIN, 4)
    assert day.end - day.start == timedelta(hours=23)


def test_other_hour_and_zone() -> None:
    day = review_day(datetime(2026, 6, 1, 15, 0, tzinfo=UTC), ZoneInfo("Asia/Shanghai"), 0)
    assert day.start == datetime(2026, 5, 31, 16, 0, tzinfo=UTC)


def c(card: int, unit: int) -> Candidate:
    return Candidate(card, unit)


def test_reviews_first_with_new_cards_spread_evenly() -> None:
    reviews = [c(i, 100 + i) for i in range(1, 9)]
    new = [c(50 + i, 200 + i) for i in range(2)]
    q = [x.card_id for x in build_queue(reviews, new, review_limit=10, new_limit=5)]
    assert sorted(q) == [1, 2, 3, 4, 5, 6, 7, 8, 50, 51]
    assert [x for x in q if x < 50] == list(range(1, 9))  # review order kept
    pos = [q.index(50), q.index(51)]
    assert 0 < pos[0] < 5 < pos[1] < 10  # interleaved, not bunched


def test_limits_and_one_card_per_unit() -> None:
    reviews = [c(1, 10), c(2, 10), c(3, 11), c(4, 12)]
    new = [c(5, 11), c(6, 13), c(7, 14), c(8, 15)]
    q = build_queue(reviews, new, review_limit=2, new_limit=2)
    assert [x.card_id for x in q if x.card_id < 5] == [1, 3]  # 2 is unit 10's sibling
    assert [x.card_id for x in q if x.card_id >= 5] == [6, 7]  # 5 is unit 11's sibling
    assert build_queue(reviews, new, review_limit=0, new_limit=0) == []
    assert [x.card_id for x in build_queue([], new, review_limit=5, new_limit=3)] == [5, 6, 7]
    only = build_queue(reviews, [], review_limit=9, new_limit=9, exclude_units=[10])
    assert [x.card_id for x in only] == [3, 4]


def test_postpone_order_puts_stable_memories_first() -> None:
    cards = [Overdue(1, 2.0, 5.0), Overdue(2, 300.0, 320.0), Overdue(3, 40.0, 45.0)]
    assert postpone_order(cards, 7, DEFAULT_PARAMETERS) == [2, 3, 1]
