"""The schedule tools' reads on a real library: the forecast's totals at each retention match
each card worked out on its own (pinned units and cards without a stability kept as
scheduled), overdue cards leave a day off today, and `rebalance` (lists by day index) moves
exactly the cards the plain rule moves, to the same days."""

from __future__ import annotations

import math
import random
from datetime import date, timedelta

from test_review_support import add_units, due_one_a_day, q

import scheduler
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.db import db, write_transaction
from scheduler.workload import DayRule, Scheduled, rebalance, window

DAY = 86400


def test_the_totals_at_each_retention_match_each_card_worked_out(
    services: Services, clock: FixedClock
) -> None:
    cards = due_one_a_day(services, clock)
    with write_transaction():
        db.execute_sql(
            "UPDATE unit SET pinned = 1 WHERE id = (SELECT unit_id FROM card WHERE id = ?)", (cards[3],)
        )
        db.execute_sql("UPDATE card SET stability = 2.5 * id WHERE id % 3 = 0")
        db.execute_sql("UPDATE card SET stability = NULL WHERE id = ?", (cards[7],))  # kept: by its due
    shown = services.schedule.forecast()
    pinned = {int(u) for (u,) in q("SELECT id FROM unit WHERE pinned = 1")}  # type: ignore[misc]
    assert pinned
    first = int(clock.now().timestamp()) // DAY
    end = (first + len(shown.due)) * DAY
    rows = q("SELECT unit_id, due, last_review, stability FROM card WHERE queue = 2")
    params = services.browse.parameters()
    for retention, total in shown.by_retention:
        k = scheduler.days_per_stability(retention, params)
        expected = sum(
            (due if unit in pinned or not stab else last + DAY * max(1, round(stab * k))) < end  # type: ignore[operator]
            for unit, due, last, stab in rows
        )
        assert total == expected, retention
    assert len({t for _, t in shown.by_retention}) > 1  # the retentions differ here
    change = services.schedule.retention_change(0.8)
    assert change.cards == sum(1 for u, _, _, stab in rows if u not in pinned and stab)


def test_overdue_cards_leave_a_day_off_today(services: Services, clock: FixedClock) -> None:
    cards = due_one_a_day(services, clock)
    now = int(clock.now().timestamp())
    with write_transaction():
        for card in cards[:4]:  # overdue since yesterday and the day before
            db.execute_sql("UPDATE card SET due = ? WHERE id = ?", (now - DAY * (1 + card % 2), card))
    today = clock.now().date()
    result = services.schedule.add_vacation(f"{today}")  # the cards move with it
    assert result.cards == 4
    assert q("SELECT COUNT(*) FROM card WHERE queue = 2 AND due < ?", (now // DAY + 1) * DAY) == [(0,)]


def _plain_rebalance(
    cards: list[Scheduled], load: dict[int, int], rule: DayRule, today: date
) -> dict[int, int]:
    """The rule as first written: a date per day looked at, min() over the window."""
    moved: dict[int, int] = {}
    counts = dict(load)

    def weight(day: int, extra: int = 0) -> float:
        f = rule.factor(today + timedelta(days=day))
        return (counts.get(day, 0) + extra) / f if f > 0 else math.inf

    for card in sorted(cards, key=lambda c: (c.day, c.card_id)):
        if rule.factor(today + timedelta(days=card.day)) >= 1:
            continue
        counts[card.day] = counts.get(card.day, 0) - 1
        best = min(range(card.lo, card.hi + 1), key=lambda d: (weight(d, 1), abs(d - card.day)))
        if weight(best, 1) < weight(card.day, 1) or math.isinf(weight(card.day, 1)):
            moved[card.card_id] = best
            counts[best] = counts.get(best, 0) + 1
        else:
            counts[card.day] += 1
    return moved


def test_rebalance_moves_what_the_plain_rule_moves() -> None:
    rng = random.Random(17)
    today = date(2026, 11, 2)
    for trial in range(60):
        easy = tuple(rng.choice((1.0, 1.0, 0.5, 0.3, 0.0)) for _ in range(7))
        if not any(easy):
            easy = (1.0,) * 7
        off = frozenset(today + timedelta(days=rng.randrange(40)) for _ in range(rng.randrange(4)))
        rule = DayRule(easy, off)
        cards = []
        for card_id in range(rng.randrange(1, 400)):
            day = rng.randrange(40)
            lo, hi = max(0, day - rng.randrange(6)), day + rng.randrange(6)
            cards.append(Scheduled(card_id, day, lo, hi))
        load: dict[int, int] = {}
        for c in cards:
            load[c.day] = load.get(c.day, 0) + 1
        for d in range(60):  # other cards' load, not movable here
            load[d] = load.get(d, 0) + rng.randrange(3)
        assert rebalance(cards, load, rule, today) == _plain_rebalance(cards, load, rule, today), trial


def test_easy_days_move_each_card_inside_its_own_window(services: Services, clock: FixedClock) -> None:
    """The move off easy days works a window out once per (day, interval): cards due on one day with other
    intervals keep windows of their own, and the moves are those of a window worked out for
    each card (fails if the windows were shared by day, or by interval)."""
    cards = due_one_a_day(services, clock, n=40)
    now = int(clock.now().timestamp())
    first = now // DAY
    with write_transaction():  # due on days 1..4, each interval (2..29 days) on all four
        for i, card in enumerate(cards):
            due = (first + 1 + i % 4) * DAY + 3600
            interval = 2 + 3 * (i // 4)
            db.execute_sql(
                "UPDATE card SET due = ?, last_review = ? WHERE id = ?", (due, due - DAY * interval, card)
            )
    today = clock.now().date()
    # the weekdays of the next four days at 0.3 load: the cards due on them move
    factors = ["1"] * 7
    for i in range(1, 5):
        factors[(today + timedelta(days=i)).weekday()] = "0.3"
    rule = DayRule(tuple(float(f) for f in factors), frozenset())
    before = {int(c): (int(d), int(r)) for c, d, r in q("SELECT id, due, last_review FROM card")}  # type: ignore[misc]
    expected_cards = []
    for card, (due, last) in sorted(before.items()):
        interval = max(1, round((due - last) / DAY))
        day = due // DAY - first
        lo, hi = window(day, interval, scheduler.fuzz_range(interval), rule, today)
        expected_cards.append(Scheduled(card, day, lo, hi))
    load = {i: 0 for i in range(500)}
    for c in expected_cards:
        load[c.day] += 1
    expected = rebalance(expected_cards, load, rule, today)
    assert len({(c.lo, c.hi) for c in expected_cards if c.day == 1}) > 2  # one day, several windows
    result = services.schedule.set_easy_days(" ".join(factors))  # the cards move with it
    after = {int(c): int(d) for c, d in q("SELECT id, due FROM card")}  # type: ignore[misc]
    moved = {c: after[c] // DAY - first for c in after if after[c] != before[c][0]}
    assert result.cards == len(expected) > 0
    assert moved == expected


def test_learning_cards_due_today_are_in_todays_forecast(services: Services, clock: FixedClock) -> None:
    """Issue 32: a learning card due later today (a step of 10 minutes) or overdue since
    yesterday is a review today: the forecast's today counts it, as the session will show it.
    One due tomorrow (a long learning step) counts on tomorrow."""
    due_one_a_day(services, clock, n=4)
    add_units(3, 1, now=int(clock.now().timestamp()))
    learning = [int(r[0]) for r in q("SELECT id FROM card WHERE queue = 0 ORDER BY id")]  # type: ignore[call-overload]
    for card in learning:
        services.review.answer(card, 1)  # Again: learning, due in minutes
    now = int(clock.now().timestamp())
    with write_transaction():
        db.execute_sql("UPDATE card SET due = ? WHERE id = ?", (now - DAY, learning[1]))  # overdue
        db.execute_sql("UPDATE card SET due = ? WHERE id = ?", (now + DAY, learning[2]))  # tomorrow
    assert q("SELECT COUNT(*) FROM card WHERE queue = 1") == [(3,)]
    reviews = _per_day_reviews(clock)
    shown = services.schedule.forecast()
    assert shown.due[0] == reviews[0] + 2
    assert shown.due[1] == reviews[1] + 1
    assert shown.due[2:] == tuple(reviews[2:])


def _per_day_reviews(clock: FixedClock) -> list[int]:
    first = int(clock.now().timestamp()) // DAY
    rows = dict(q("SELECT MAX(0, due / 86400 - ?), COUNT(*) FROM card WHERE queue = 2 GROUP BY 1", first))
    return [int(rows.get(d, 0)) for d in range(30)]  # type: ignore[call-overload]
