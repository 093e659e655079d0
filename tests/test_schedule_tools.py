"""Schedule tools on a real library: easy days and vacations move the load (in answers' load
balancing and for cards already scheduled), the forecast at each retention, rescheduling for a
new retention with the workload change first, review ahead and postpone; all undoable."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from test_review_support import due_one_a_day, q

import scheduler
from core.domain.errors import DiskFull
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse import actions
from scheduler.workload import DayRule, parse_easy_days, parse_vacation, weighted

DAY = 86400


def _due_days(services: Services, clock: FixedClock) -> list[int]:
    today = int(clock.now().timestamp()) // DAY
    return [int(r[0]) - today for r in q("SELECT due / 86400 FROM card WHERE queue = 2 ORDER BY id")]  # type: ignore[call-overload]


def test_parsing_says_what_is_wrong() -> None:
    assert parse_easy_days("1 1 1 1 1 0.5 0") == (1, 1, 1, 1, 1, 0.5, 0)
    for bad in ("1 1 1", "1 1 1 1 1 1 2", "0 0 0 0 0 0 0"):
        with pytest.raises(ValueError):
            parse_easy_days(bad)
    assert parse_vacation("2026-12-24..2026-12-26") == (date(2026, 12, 24), date(2026, 12, 26))
    for bad in ("christmas", "2026-12-26..2026-12-24"):
        with pytest.raises(ValueError):
            parse_vacation(bad)


def test_load_balancing_never_picks_a_day_off_while_another_is_in_range() -> None:
    first = date(2026, 11, 2)  # a Monday
    rule = DayRule((1, 1, 1, 1, 1, 0.5, 0), frozenset({date(2026, 11, 4)}))
    counts = [5, 0, 0, 5, 5, 4, 0]  # Mon .. Sun: Wednesday (off) and Sunday (factor 0) are empty
    rng = random.Random(1)
    assert {scheduler.choose_day(0, 6, rng, weighted(counts, first, rule)) for _ in range(50)} == {1}
    assert weighted(counts, first, rule)[5] == 8  # Saturday counts double


def test_a_vacation_and_an_easy_day_move_the_forecast_and_undo_brings_it_back(
    services: Services, clock: FixedClock
) -> None:
    due_one_a_day(services, clock)
    before = _due_days(services, clock)
    today = clock.now().date()
    shown = services.schedule.forecast()
    assert shown.due[1:11] == (2,) * 10 and sum(shown.due) == 20
    result = services.schedule.add_vacation(f"{today + timedelta(days=3)}..{today + timedelta(days=5)}")
    assert result.cards == 6  # the six cards due on the three days off
    after = services.schedule.forecast()
    assert after.due[3:6] == (0, 0, 0) and sum(after.due) == 20
    assert all(d not in (3, 4, 5) for d in _due_days(services, clock))
    weekday = (today + timedelta(days=7)).weekday()
    easy = ["1"] * 7
    easy[weekday] = "0.5"
    services.schedule.set_easy_days(" ".join(easy))
    assert services.schedule.forecast().due[7] < after.due[7]
    assert services.undo.undo(Scope.BULK) is not None and services.undo.undo(Scope.BULK) is not None
    assert _due_days(services, clock) == before


def test_answers_avoid_vacation_days(services: Services, clock: FixedClock) -> None:
    due_one_a_day(services, clock, n=12)
    clock.advance(days=11)
    services.review.start_session()
    item = services.review.next_card()
    assert item is not None
    services.review.answer(item.card.id, 3)  # unfuzzed: the day every one of them would get
    natural = datetime.fromtimestamp(
        int(q("SELECT due FROM card WHERE id = ?", item.card.id)[0][0]), UTC
    ).date()  # type: ignore[call-overload]
    services.undo.undo(Scope.REVIEW)
    off = {natural + timedelta(days=d) for d in (-1, 0, 1)}
    services.schedule.add_vacation(f"{natural - timedelta(days=1)}..{natural + timedelta(days=1)}")
    services.review.fuzz = True
    services.review.rng.seed(7)
    services.review.start_session()
    answered = 0
    while (item := services.review.next_card()) is not None:
        services.review.answer(item.card.id, 3)
        answered += 1
    assert answered == 12
    dues = [datetime.fromtimestamp(int(r[0]), UTC).date() for r in q("SELECT due FROM card WHERE reps > 2")]  # type: ignore[call-overload]
    assert len(dues) == 12 and not off & set(dues), sorted(dues)


def test_retention_change_shows_the_workload_then_reschedules_undoably(
    services: Services, clock: FixedClock
) -> None:
    due_one_a_day(services, clock)
    before = _due_days(services, clock)
    change = services.schedule.retention_change(0.97)
    assert change.cards == 20 and change.old_total == 20 and change.new_total == 20  # all due sooner
    lower = services.schedule.retention_change(0.70)
    assert lower.new_total < lower.old_total
    totals = dict(services.schedule.forecast().by_retention)
    assert totals[0.8] <= totals[0.9] <= totals[0.95]
    result = services.schedule.reschedule(0.70)
    assert result.cards == 20 and _due_days(services, clock) != before
    services.undo.undo(Scope.BULK)
    assert _due_days(services, clock) == before


def test_review_ahead_and_postpone(services: Services, clock: FixedClock) -> None:
    due_one_a_day(services, clock)
    ahead = services.schedule.review_ahead(2)
    assert ahead.cards == 4  # due tomorrow and the day after
    assert q("SELECT COUNT(*) FROM card WHERE due <= ?", int(clock.now().timestamp())) == [(4,)]
    later = services.schedule.postpone(3)
    assert later.cards == 4
    assert q("SELECT COUNT(*) FROM card WHERE due <= ?", int(clock.now().timestamp())) == [(0,)]
    assert q("SELECT COUNT(*) FROM card WHERE due = ?", int(clock.now().timestamp()) + 3 * DAY) == [(4,)]


def test_undoing_easy_days_takes_the_setting_back_with_the_cards(
    services: Services, clock: FixedClock
) -> None:
    """Setting easy days and moving the cards off them is one change (issue 34, item 13.5): `u`
    took the cards back and left the easy days set ("Sat 0.5 · Sun 0")."""
    due_one_a_day(services, clock)
    before = _due_days(services, clock)
    easy = ["1"] * 7
    easy[(clock.now().date() + timedelta(days=7)).weekday()] = "0"
    result = services.schedule.set_easy_days(" ".join(easy))
    assert result.cards == 2 and _due_days(services, clock) != before  # the two cards due that day
    assert services.schedule.forecast().easy_days == tuple(float(x) for x in easy)

    done = services.undo.undo(Scope.BULK)

    assert done is not None and done.action == "easy_days" and done.changed_since() == ""
    assert _due_days(services, clock) == before
    assert services.schedule.forecast().easy_days == (1.0,) * 7
    assert q("SELECT COUNT(*) FROM setting WHERE key = 'easy_days'") == [(0,)]  # never set, as before


def test_easy_days_and_their_moves_are_one_transaction(
    services: Services, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move fails (a full disk, say): the easy days are not set either."""
    due_one_a_day(services, clock)
    before = _due_days(services, clock)

    def full(*args: object) -> int:
        raise DiskFull("disk full, nothing saved; free some space and try again")

    monkeypatch.setattr(actions, "move_cards", full)
    with pytest.raises(DiskFull):
        services.schedule.set_easy_days("1 1 1 1 1 0.5 0")
    assert q("SELECT COUNT(*) FROM setting WHERE key = 'easy_days'") == [(0,)]
    assert _due_days(services, clock) == before


def test_undoing_a_vacation_leaves_vacations_changed_since(services: Services, clock: FixedClock) -> None:
    """Each vacation's undo puts the vacations back as they were before it, unless they were
    changed since (cleared here): then they stay as they are, and the notice says so."""
    due_one_a_day(services, clock)
    before = _due_days(services, clock)
    today = clock.now().date()
    first = f"{today + timedelta(days=3)}..{today + timedelta(days=5)}"
    assert services.schedule.add_vacation(first).cards == 6
    assert services.schedule.add_vacation(f"{today + timedelta(days=8)}").cards == 2

    second = services.undo.undo(Scope.BULK)

    assert second is not None and second.action == "vacation" and second.changed_since() == ""
    assert services.schedule.vacations() == [(str(today + timedelta(days=3)), str(today + timedelta(days=5)))]
    services.schedule.clear_vacations()
    undone = services.undo.undo(Scope.BULK)
    assert undone is not None and undone.action == "vacation"
    assert undone.changed_since() == "the vacations changed since left as they are"
    assert services.schedule.vacations() == []
    assert _due_days(services, clock) == before
