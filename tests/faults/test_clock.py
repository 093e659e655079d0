"""The system clock moved backwards between reviews: a warning, and no card scheduled into the past."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from core.host.clock import FixedClock
from core.services.bootstrap import open_services

from .app_driver import NOW, notices, run_app, settle
from .helpers import confirmed_library, query, reps_mismatches, scalar, write


def _time_travel_problems(home: Path) -> list[str]:
    problems = []
    bad_due = query(
        home, "SELECT id, due, last_review FROM card WHERE last_review IS NOT NULL AND due < last_review"
    )
    if bad_due:
        problems.append(f"cards due before their last review: {bad_due[:5]}")
    backwards = query(
        home,
        "SELECT a.card_id, a.id, b.id FROM review_log a JOIN review_log b "
        "ON a.card_id = b.card_id AND b.id > a.id AND b.reviewed_at < a.reviewed_at",
    )
    if backwards:
        problems.append(f"a later review recorded before an earlier one: {backwards[:5]}")
    return problems


def test_app_warns_and_records_at_the_last_review_time(home: Path) -> None:
    write(home / "config.toml", "[review]\nnew_per_day = 9999\n")
    doc = write(
        home.parent / "one.txt", "Spaced repetition schedules each review just before you would forget it.\n"
    )
    svc = open_services(home)
    try:
        svc.library.import_paths([doc], extractor="placeholder")
        svc.curation.accept_all_valid(svc.library.articles()[0].id)
    finally:
        svc.close()
    assert scalar(home, "SELECT COUNT(*) FROM card") == 1

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        clock: FixedClock = app.services.clock  # type: ignore[assignment]
        screen = app.screen
        await pilot.press("space", "3")  # answered at NOW: a learning step of minutes
        await settle(pilot)
        card = scalar(home, "SELECT id FROM card")
        assert scalar(home, "SELECT last_review FROM card") == int(NOW.timestamp())
        clock.set(NOW - timedelta(minutes=5))  # the system clock jumps back
        screen.next_card()
        await settle(pilot)
        assert screen.item is not None and screen.item.card.id == card
        await pilot.press("space", "3")
        await settle(pilot)
        warnings = notices(app, "warning")
        assert any("clock" in w and "behind" in w for w in warnings), notices(app)

    run_app(home, body, start="review")
    times = [r[0] for r in query(home, "SELECT reviewed_at FROM review_log ORDER BY id")]
    assert times == [int(NOW.timestamp())] * 2  # recorded at the last review time, not 5 min earlier
    assert scalar(home, "SELECT MAX(clock_skew_s) FROM review_log") == 300
    assert scalar(home, "SELECT due FROM card") > int(NOW.timestamp())  # not scheduled into the past
    assert _time_travel_problems(home) == []
    assert reps_mismatches(home) == []


def test_clock_back_a_day_between_sessions(home: Path) -> None:
    """Sessions on three days, then the clock goes back a day: the next session works, a card
    last reviewed "tomorrow" answered now is warned about and recorded at its last review
    time, and no card is ever due before its last review."""
    confirmed_library(home)
    clock = FixedClock(NOW)
    svc = open_services(home, clock=clock)
    try:
        for day in (0, 1, 2):
            clock.set(NOW + timedelta(days=day, hours=1))
            svc.review.start_session()
            for _ in range(15):
                item = svc.review.next_card()
                if item is None:
                    break
                svc.review.answer(item.card.id, 3)
        latest_card, latest = query(
            home, "SELECT id, last_review FROM card ORDER BY last_review DESC LIMIT 1"
        )[0]
        clock.set(NOW + timedelta(days=1, hours=1))  # a day behind the last session
        svc.review.start_session()
        while (item := svc.review.next_card()) is not None:
            assert item.card.last_review is None or item.card.last_review <= int(clock.now().timestamp())
            svc.review.answer(item.card.id, 3)
        result = svc.review.answer(latest_card, 3)  # shown before the clock jumped back
        assert result.warnings and "clock" in result.warnings[0]
    finally:
        svc.close()
    assert scalar(home, "SELECT MAX(reviewed_at) FROM review_log WHERE card_id = ?", (latest_card,)) == latest
    assert _time_travel_problems(home) == []
    assert reps_mismatches(home) == []
