"""Stats from the real services: counts, forecast, reviews per day, true retention, streak, strength."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from test_review_support import add_units, graduate, prepare, q, session_ids

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.review import cards as review_repo
from scheduler import REVIEW, retrievability


def test_empty_library_stats(services: Services) -> None:
    prepare(services)
    st = services.stats.summary()
    assert st.total_reviews == 0 and st.streak == 0 and st.true_retention is None
    assert st.average_retrievability is None and len(st.forecast) == 30 and len(st.reviews_per_day) == 30
    assert sum(p.value for p in st.forecast) == 0


def test_stats_after_some_days_of_review(services: Services, clock: FixedClock) -> None:
    prepare(services)
    services.config = replace(services.config, new_per_day=4)
    add_units(8, 1, now=int(clock.now().timestamp()))
    for cid in session_ids(services):
        graduate(services, clock, cid)  # day 1: 4 new cards, 8 answers
    clock.advance(days=1)
    assert services.stats.summary().streak == 1  # yesterday counts until today has answers
    for cid in session_ids(services):
        graduate(services, clock, cid)  # day 2: 4 more
    clock.advance(days=3)
    due = [c for c in session_ids(services) if review_repo.get_card(c).state == REVIEW]  # type: ignore[union-attr]
    assert due
    passed = 0
    for i, cid in enumerate(due):
        services.review.answer(cid, 1 if i == 0 else 3)
        passed += i != 0
    st = services.stats.summary()
    assert st.total_reviews == 16 + len(due)
    assert st.streak == 1  # day 3 and 4 were missed
    assert st.true_retention is not None and abs(st.true_retention - passed / len(due)) < 1e-9
    assert st.true_retention_reviews == len(due)
    per_day = {p.day: p.value for p in st.reviews_per_day}
    assert per_day["2026-11-02"] == 8 and per_day["2026-11-03"] == 8 and per_day["2026-11-06"] == len(due)
    assert st.counts["review"] + st.counts["learning"] + st.counts["new"] + st.counts["buried"] == 8
    assert sum(p.value for p in st.forecast) == st.counts["review"] + st.counts["learning"]

    now = clock.now()
    rows = [review_repo.get_card(int(c)) for (c,) in q("SELECT id FROM card WHERE last_review IS NOT NULL")]  # type: ignore[call-overload]
    rs = [retrievability(r.stability, datetime.fromtimestamp(r.last_review, UTC), now) for r in rows]  # type: ignore[union-attr, arg-type]
    assert st.average_retrievability is not None and abs(st.average_retrievability - sum(rs) / len(rs)) < 1e-9
    weakest = services.stats.unit_strengths()
    values = [u.retrievability for u in weakest if u.retrievability is not None]
    assert values == sorted(values) and len(weakest) == 8
    cards = services.stats.card_retrievability()
    assert [round(r, 12) for _, _, r in cards] == sorted(round(r, 12) for r in rs)
