"""Review actions through the real services: undo across a restart, leech, pin, trash expiry,
clock skew, load balancing and postponing a backlog."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from test_review_support import add_units, graduate, prepare, q, session_ids

import scheduler
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services
from core.storage.review import cards as review_repo
from core.storage.review import writes as review_writes
from scheduler import REVIEW, Policy, fuzz_range


def now_of(clock: FixedClock) -> int:
    return int(clock.now().timestamp())


def card_state(card_id: int) -> tuple[object, ...]:
    return q(
        "SELECT state, step, stability, difficulty, due, last_review, reps, lapses, queue FROM card WHERE id = ?",
        card_id,
    )[0]


def test_undo_several_steps_survives_a_restart(data_home: Path, clock: FixedClock) -> None:
    svc = open_services(data_home, clock=clock)
    prepare(svc)
    add_units(3, 2, now=now_of(clock))
    ids = session_ids(svc)
    before = {cid: card_state(cid) for cid in [r[0] for r in q("SELECT id FROM card")]}
    answered = []
    for cid in ids:
        svc.review.answer(cid, 3)
        answered.append(cid)
        clock.advance(seconds=30)
    assert q("SELECT COUNT(*) FROM review_log") == [(3,)]
    svc.close()

    svc = open_services(data_home, clock=clock)  # a restart
    prepare(svc)
    for cid in reversed(answered):
        undone = svc.undo.undo(Scope.REVIEW)
        assert undone is not None and (undone.action, undone.card_id) == ("rate", cid)
    assert svc.undo.undo(Scope.REVIEW) is None
    assert q("SELECT COUNT(*) FROM review_log") == [(0,)]
    assert {cid: card_state(cid) for cid in before} == before  # siblings unburied too
    first = svc.review.next_card()
    assert first is not None and first.card.id == answered[0]  # the undone card is shown again
    svc.close()


def test_an_undone_card_goes_to_the_front_under_the_days_lock(services: Services, clock: FixedClock) -> None:
    """The undone card's return to the front waits for the day's lock, which a queue built again
    holds (a new day read on the UI thread): pushed meanwhile, the build would drop it."""
    import threading

    prepare(services)
    add_units(3, 2, now=now_of(clock))
    first = session_ids(services)[0]
    services.review.answer(first, 3)
    review = services.review
    with review._day_lock:
        undo = threading.Thread(target=services.undo.undo, args=(Scope.REVIEW,))
        undo.start()
        undo.join(timeout=1.0)
        assert undo.is_alive()  # waiting for the lock
        assert review.today.head() != first
        review.today.replace([], {}, review.today.day_start or 0)  # what a build at that moment leaves
    undo.join(timeout=5.0)
    assert not undo.is_alive()
    assert review.today.head() == first  # pushed after the build, not lost to it


def test_undo_suspend_and_pin(services: Services, clock: FixedClock) -> None:
    prepare(services)
    [unit] = add_units(1, 1, now=now_of(clock))
    [cid] = [r[0] for r in q("SELECT id FROM card")]
    assert services.review.suspend(cid)  # type: ignore[arg-type]
    assert services.review.pin_unit(unit)
    assert q("SELECT pinned FROM unit") == [(1,)]
    assert services.undo.undo(Scope.REVIEW).action == "pin"  # type: ignore[union-attr]
    assert q("SELECT pinned FROM unit") == [(0,)]
    assert services.undo.undo(Scope.REVIEW).action == "suspend"  # type: ignore[union-attr]
    assert q("SELECT queue FROM card") == [(0,)]


def test_leech_is_suspended_and_tagged(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, leech_threshold=3)
    add_units(1, 1, now=now_of(clock))
    [cid] = [int(r[0]) for r in q("SELECT id FROM card")]  # type: ignore[call-overload]
    graduate(services, clock, cid)
    leech_seen = []
    for _ in range(3):
        row = review_repo.get_card(cid)
        assert row is not None and row.state == REVIEW
        clock.set(datetime.fromtimestamp(row.due, UTC) + timedelta(hours=1))
        result = services.review.answer(cid, 1)  # a lapse
        leech_seen.append(result.became_leech)
        if not result.became_leech:  # relearn back to review
            clock.advance(minutes=10)
            services.review.answer(cid, 3)
    assert leech_seen == [False, False, True]
    card = services.review.card(cid)
    assert (
        card is not None
        and card.suspended
        and card.leech
        and card.lapses == 3
        and card.queue_label == "suspended"
    )
    assert [c.id for c in services.review.leeches()] == [cid]
    assert services.review.next_card() is None


def test_pinned_units_keep_a_higher_retention(services: Services, clock: FixedClock) -> None:
    prepare(services)
    [plain_unit, pinned_unit] = add_units(2, 1, now=now_of(clock))
    cards = {int(u): int(c) for c, u in q("SELECT id, unit_id FROM card")}  # type: ignore[call-overload]
    for cid in cards.values():
        graduate(services, clock, cid)
    due_before = review_repo.get_card(cards[pinned_unit]).due  # type: ignore[union-attr]
    assert services.review.pin_unit(pinned_unit)
    row = review_repo.get_card(cards[pinned_unit])
    assert row is not None and row.due < due_before  # re-timed for 0.97 at once
    assert row.stability is not None and row.last_review is not None
    assert row.due == row.last_review + scheduler.interval_for(row.stability, 0.97) * 86400
    clock.advance(days=40)
    a = services.review.answer(cards[plain_unit], 3)
    b = services.review.answer(cards[pinned_unit], 3)
    assert b.card.due - now_of(clock) < a.card.due - now_of(clock)
    item_units = {u.unit_id: u.pinned for u in services.stats.unit_strengths()}
    assert item_units == {plain_unit: False, pinned_unit: True}


def test_trash_hides_cards_restores_them_and_expires(data_home: Path, clock: FixedClock) -> None:
    svc = open_services(data_home, clock=clock)
    prepare(svc)
    [keep, gone] = add_units(2, 2, now=now_of(clock))
    cid = int(q("SELECT id FROM card WHERE unit_id = ? ORDER BY id", keep)[0][0])  # type: ignore[call-overload]
    svc.review.answer(cid, 3)
    assert svc.review.trash_unit(keep) and svc.review.trash_unit(gone)
    assert q("SELECT DISTINCT queue FROM card") == [(-3,)]
    assert svc.review.next_card() is None
    assert svc.review.restore_unit(keep)
    assert q("SELECT queue, COUNT(*) FROM card WHERE unit_id = ? GROUP BY queue", keep) == [(-2, 1), (1, 1)]
    svc.close()
    clock.advance(days=31)
    svc = open_services(data_home, clock=clock)  # start-up purges trash older than 30 days
    assert any("purged 1" in n for n in svc.notices)
    assert q("SELECT COUNT(*) FROM card WHERE unit_id = ?", gone) == [(0,)]
    assert q("SELECT COUNT(*) FROM card WHERE unit_id = ?", keep) == [(2,)]
    assert q("SELECT COUNT(*) FROM review_log") == [(1,)]
    svc.close()


def test_clock_going_backwards_is_logged_and_warned(services: Services, clock: FixedClock, caplog) -> None:  # type: ignore[no-untyped-def]
    prepare(services)
    add_units(1, 1, now=now_of(clock))
    [cid] = [int(r[0]) for r in q("SELECT id FROM card")]  # type: ignore[call-overload]
    first = services.review.answer(cid, 3)
    assert first.warnings == ()
    clock.advance(hours=-2)
    with caplog.at_level("WARNING"):
        second = services.review.answer(cid, 3)
    assert second.warnings and "behind" in second.warnings[0]
    assert "7200 s behind" in caplog.text
    logs = q("SELECT reviewed_at, wall_at, clock_skew_s FROM review_log ORDER BY id")
    assert logs[1] == (logs[0][0], now_of(clock), 7200)  # counted at the last review, wall time kept


def test_load_balancing_picks_the_quietest_day(services: Services, clock: FixedClock) -> None:
    prepare(services, fuzz=True)
    services.config = replace(services.config, new_per_day=100)
    add_units(60, 1, now=now_of(clock))
    ids = [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]  # type: ignore[call-overload]
    target, others = ids[0], ids[1:]
    t = now_of(clock)
    row = review_repo.get_card(target)
    assert row is not None
    mature = replace(
        row, state=REVIEW, stability=40.0, difficulty=5.0, last_review=t - 40 * 86400, due=t, reps=4
    )
    review_writes.update_cards("setup", [mature], t)
    plain, _ = scheduler.review(scheduler.CardState.of(mature), 3, clock.now(), Policy(fuzz=False))
    assert plain.due is not None
    lo, hi = fuzz_range((plain.due - clock.now()).days)
    assert hi - lo >= 4
    quiet = lo + 1
    day_start = int(services.review.day().start.timestamp())
    busy = []
    for i, cid in enumerate(others):
        d = lo + i % (hi - lo + 1)
        if d == quiet:
            continue
        r = review_repo.get_card(cid)
        assert r is not None
        busy.append(
            replace(
                r,
                state=REVIEW,
                stability=50.0,
                difficulty=5.0,
                last_review=t,
                due=day_start + d * 86400 + 3600,
            )
        )
    review_writes.update_cards("setup", busy, t)
    result = services.review.answer(target, 3)
    assert (result.card.due - day_start) // 86400 == quiet


def test_postpone_backlog_moves_the_least_harmed_cards(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, max_reviews_per_day=2, new_per_day=0)
    add_units(5, 1, now=now_of(clock))
    t = now_of(clock)
    stabilities = {1: 2.0, 2: 400.0, 3: 30.0, 4: 5.0, 5: 900.0}
    rows = []
    for cid, s in stabilities.items():
        r = review_repo.get_card(cid)
        assert r is not None
        rows.append(
            replace(
                r,
                state=REVIEW,
                stability=s,
                difficulty=5.0,
                last_review=t - int(s * 1.5 * 86400),
                due=t - 5 * 86400,
            )
        )
    review_writes.update_cards("setup", rows, t)
    assert services.review.summary().overdue_backlog == 3
    assert services.review.postpone_backlog(days=3) == 3
    day_start = int(services.review.day().start.timestamp())
    moved = {
        int(c): (int(d) - day_start) // 86400
        for c, d in q("SELECT id, due FROM card WHERE due >= ?", day_start)
    }  # type: ignore[call-overload]
    assert set(moved) == {2, 3, 5}  # the most stable memories wait; the fragile ones stay today
    assert all(1 <= d <= 3 for d in moved.values())
    assert session_ids(services) == [1, 4]
    assert services.undo.undo(Scope.REVIEW).action == "postpone"  # type: ignore[union-attr]
    assert q("SELECT COUNT(*) FROM card WHERE due < ?", day_start) == [(5,)]


def test_due_per_day_counter_stays_exact(data_home: Path, clock: FixedClock) -> None:
    """The trigger-kept review_due_day table (load balancing) matches a full count after answers,
    undo, suspend, trash, restore and a purge."""
    svc = open_services(data_home, clock=clock)
    prepare(svc, fuzz=True)
    units = add_units(12, 2, now=now_of(clock))

    def exact() -> None:
        counted = q("SELECT due / 86400, COUNT(*) FROM card WHERE queue = 2 GROUP BY 1 ORDER BY 1")
        kept = q("SELECT day, n FROM review_due_day WHERE n != 0 ORDER BY day")
        assert kept == counted

    for _ in range(4):
        for cid in session_ids(svc):
            svc.review.answer(cid, 4)
        clock.advance(days=5)
    exact()
    svc.undo.undo(Scope.REVIEW)
    svc.undo.undo(Scope.REVIEW)
    svc.review.suspend(int(q("SELECT id FROM card WHERE queue = 2 LIMIT 1")[0][0]))  # type: ignore[call-overload]
    exact()
    svc.review.trash_unit(units[0])
    svc.review.trash_unit(units[1])
    svc.review.restore_unit(units[0])
    exact()
    svc.close()
    clock.advance(days=40)
    open_services(data_home, clock=clock).close()  # purge: cascaded deletes fire the triggers too
    svc = open_services(data_home, clock=clock)
    exact()
    svc.close()


def test_undo_a_rating_after_trashing_keeps_the_unit_hidden(services: Services, clock: FixedClock) -> None:
    prepare(services)
    [unit] = add_units(1, 1, now=now_of(clock))
    item = services.review.next_card()
    assert item is not None
    services.review.answer(item.card.id, 3)
    assert services.review.trash_unit(unit)
    assert services.undo.undo(Scope.REVIEW) is not None  # the rating is undone...
    assert q("SELECT reps, queue FROM card") == [(0, -3)]  # ...but the card stays with its trashed unit
    assert services.review.next_card() is None
    assert services.review.restore_unit(unit)
    assert q("SELECT reps, queue FROM card") == [(0, 0)]


def test_answer_on_a_locked_database_writes_nothing(data_home: Path, clock: FixedClock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest
    from process_support import write_locked

    from core.domain.errors import DatabaseBusy

    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "100")
    svc = open_services(data_home, clock=clock)
    prepare(svc)
    add_units(1, 2, now=now_of(clock))
    item = svc.review.next_card()
    assert item is not None
    before = card_state(item.card.id)
    with write_locked(), pytest.raises(DatabaseBusy, match="nothing was saved"):  # another process's lock
        svc.review.answer(item.card.id, 3)
    assert card_state(item.card.id) == before
    assert q("SELECT COUNT(*) FROM review_log") == [(0,)] and q("SELECT COUNT(*) FROM undo_entry") == [(0,)]
    assert svc.review.answer(item.card.id, 3).review_log_id > 0  # the same card, answered again
    svc.close()
