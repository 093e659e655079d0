"""An undo takes back its own change only (issue 34, item 2).

Random sequences of Browse's bulk card actions, answers, Review's suspend and bury, a new day,
and undos from Browse and from Review, on a real library; after every undo each card must be
what the journal implies: the rows the undone action changed and that are still as it left them
are back as they were before it, and every row changed since (an answer, another tool) is left
as it is. After every step, every card agrees with its own review log (reps = its answers; a
card that is not new carries the memory state of its last answer).

Before the rule, Browse "set due" on all -> answer one card (Good) -> Browse u put the card's due
back to before the set due while its stability, reps and log were the new answer's; "forget" ->
answer (Easy) -> u restored the pre-forget card and the answer survived only in review_log; and
Review's u after a Browse action wrote the pre-answer row over it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_review_support import add_units, graduate, prepare, q

from core.domain.browse import BrowseFilter, BulkAction, RowKey, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse.actions import WRITES
from core.storage.browse.models import CARD_COLUMNS

COLUMNS = tuple(c for c in CARD_COLUMNS if c != "queue")  # the queue follows from the others
BULK = [
    BulkAction.SUSPEND, BulkAction.UNSUSPEND, BulkAction.BURY, BulkAction.UNBURY, BulkAction.FORGET,
    BulkAction.SET_DUE, BulkAction.POSTPONE, BulkAction.ADVANCE,
]  # fmt: skip
Row = dict[str, Any]


def _cards() -> dict[int, Row]:
    rows = q(f"SELECT id, {', '.join(COLUMNS)} FROM card ORDER BY id")
    return {int(r[0]): dict(zip(COLUMNS, r[1:], strict=True)) for r in rows}  # type: ignore[arg-type]


def _changed(before: dict[int, Row], after: dict[int, Row]) -> dict[int, tuple[Row, Row]]:
    return {i: (before[i], after[i]) for i in after if i in before and before[i] != after[i]}


@dataclass
class Model:
    """The journals as the test sees them: per entry, the rows it changed (before, after)."""

    bulk: list[tuple[str, dict[int, tuple[Row, Row]]]] = field(default_factory=list)
    review: list[tuple[int, dict[int, tuple[Row, Row]]]] = field(default_factory=list)


def _expect_bulk_undo(action: str, entry: dict[int, tuple[Row, Row]], now: dict[int, Row]) -> dict[int, Row]:
    written = set(WRITES[action])
    signed = written | {"reps"}
    expected = {i: dict(r) for i, r in now.items()}
    for i, (before, after) in entry.items():
        if all(now[i][c] == after[c] for c in signed):  # still as the action left it
            expected[i].update({c: before[c] for c in written})
    return expected


def _expect_review_undo(main: int, entry: dict[int, tuple[Row, Row]], now: dict[int, Row]) -> dict[int, Row]:
    same = {i: now[i] == after for i, (_, after) in entry.items()}
    expected = {i: dict(r) for i, r in now.items()}
    if main in entry and not same[main]:
        return expected  # refused: the card changed since
    for i, (before, _) in entry.items():
        if same[i]:
            expected[i] = dict(before)
    return expected


def _check_logs() -> None:
    """Every card agrees with its own review log."""
    bad = q(
        "SELECT c.id, c.reps, (SELECT COUNT(*) FROM review_log r WHERE r.card_id = c.id) FROM card c "
        "WHERE c.reps != (SELECT COUNT(*) FROM review_log r WHERE r.card_id = c.id)"
    )
    assert not bad, f"reps differ from the review log: {bad}"
    bad = q(
        "SELECT c.id, c.stability, r.stability FROM card c JOIN review_log r ON r.id = "
        "(SELECT MAX(id) FROM review_log WHERE card_id = c.id) WHERE c.state != 0 AND "
        "(c.stability IS NOT r.stability OR c.difficulty IS NOT r.difficulty)"
    )
    assert not bad, f"memory state differs from the last answer: {bad}"


def _step(services: Services, clock: FixedClock, rng: random.Random, model: Model) -> str:
    ids = list(_cards())
    op = rng.choice(["bulk", "bulk", "answer", "answer", "set_aside", "undo_bulk", "undo_review", "day"])
    before = _cards()
    if op == "bulk":
        action = rng.choice(BULK)
        picked = rng.sample(ids, rng.randint(1, len(ids)))
        keys = tuple(RowKey(i, int(q("SELECT unit_id FROM card WHERE id = ?", i)[0][0])) for i in picked)  # type: ignore[call-overload]
        selection = Selection(BrowseFilter(), keys if rng.random() < 0.6 else ())
        result = services.browse.act(action, selection, days=rng.randint(1, 9))
        if result.journal_id:
            model.bulk.append((action.value, _changed(before, _cards())))
        return f"bulk {action.value}"
    if op == "answer":
        card = rng.choice(ids)
        services.review.answer(card, rng.randint(1, 4))
        model.review.append((card, _changed(before, _cards())))
        return f"answer {card}"
    if op == "set_aside":
        card = rng.choice(ids)
        if (services.review.bury if rng.random() < 0.5 else services.review.suspend)(card):
            model.review.append((card, _changed(before, _cards())))
        return f"set aside {card}"
    if op == "day":
        clock.advance(days=rng.randint(1, 4))
        services.review.start_session()  # the new day: burials lifted (no journal)
        return "day"
    return _undo(services, Scope.BULK if op == "undo_bulk" else Scope.REVIEW, model, before)


def _undo(services: Services, scope: Scope, model: Model, before: dict[int, Row]) -> str:
    """Undo from Browse (BULK) or Review; each card must be what the undone entry implies."""
    done = services.undo.undo(scope)
    name, journal = ("bulk", model.bulk) if scope is Scope.BULK else ("review", model.review)
    if not journal:
        assert done is None
        return f"undo {name}: nothing"
    key, entry = journal.pop()
    assert done is not None
    if scope is Scope.BULK:
        assert done.action == key
        assert _cards() == _expect_bulk_undo(key, entry, before), f"bulk undo of {key}"
        return f"undo bulk {key} (left {done.cards_left})"
    assert done.card_id == key
    assert _cards() == _expect_review_undo(key, entry, before), f"review undo of {done.action} on {key}"
    return f"undo review {done.action}{' (changed since)' if done.changed_since else ''}"


@pytest.mark.parametrize("seed", range(24))
def test_undo_takes_back_its_own_change_only(services: Services, clock: FixedClock, seed: int) -> None:
    rng = random.Random(seed)
    prepare(services)
    add_units(3, 2, now=int(clock.now().timestamp()))
    for card_id in list(_cards())[:3]:
        graduate(services, clock, card_id)
    clock.advance(days=3)
    services.review.start_session()
    while services.undo.undo(Scope.REVIEW) is not None:  # the set-up's answers are not the model's
        pass
    for card_id in list(_cards())[:3]:
        graduate(services, clock, card_id)
    services.review.start_session()
    while q("SELECT 1 FROM undo_entry"):
        q("DELETE FROM undo_entry")
    model, trail = Model(), []
    for _ in range(30):
        trail.append(_step(services, clock, rng, model))
        _check_logs()
    assert trail  # the trail is in the failure's locals


def test_the_attacks_two_sequences(services: Services, clock: FixedClock) -> None:
    """set due on all -> Good -> u; forget on all -> Easy -> u: the answered card keeps its answer."""
    prepare(services)
    add_units(2, 1, now=int(clock.now().timestamp()))
    cards = list(_cards())
    for card_id in cards:
        graduate(services, clock, card_id)
    clock.advance(days=5)
    services.review.start_session()
    for action, rating in ((BulkAction.SET_DUE, 3), (BulkAction.FORGET, 4)):
        services.browse.act(action, Selection(BrowseFilter()), days=7)
        answered = services.review.answer(cards[0], rating)
        kept = _cards()[cards[0]]
        done = services.undo.undo(Scope.BULK)
        assert done is not None and done.cards_left == 1 and done.cards == 1
        assert "1 card changed since" in done.changed_since()
        assert _cards()[cards[0]] == kept and kept["due"] == answered.card.due
        _check_logs()


def test_triage_undo_leaves_a_unit_changed_since(services: Services, clock: FixedClock) -> None:
    """Accept -> answer its card -> Triage u: the unit stays confirmed with its answer (refused);
    accept all -> tag one in Browse -> u: the others go back, the tagged one stays."""
    prepare(services)
    units = add_units(3, 1, now=int(clock.now().timestamp()), confirm=False)
    services.curation.accept(units[0])
    card = int(q("SELECT id FROM card WHERE unit_id = ?", units[0])[0][0])  # type: ignore[call-overload]
    services.review.answer(card, 3)
    done = services.undo.undo(Scope.CURATION)
    assert done is not None and done.changed_since and done.unit_id == units[0]
    assert q("SELECT status FROM unit WHERE id = ?", units[0]) == [("confirmed",)]
    assert q("SELECT reps, active FROM card WHERE id = ?", card) == [(1, 1)]
    _check_logs()

    article = int(q("SELECT article_id FROM unit WHERE id = ?", units[1])[0][0])  # type: ignore[call-overload]
    assert services.curation.accept_all_valid(article) == 2
    services.browse.act(BulkAction.TAG, Selection(BrowseFilter(), (RowKey(None, units[2]),)), tag="later")
    done = services.undo.undo(Scope.CURATION)
    assert done is not None and not done.changed_since and done.left == 1
    assert q("SELECT id, status FROM unit WHERE id IN (?, ?) ORDER BY id", units[1], units[2]) == [
        (units[1], "proposed"),
        (units[2], "confirmed"),
    ]
    assert "later" in str(q("SELECT tags_json FROM unit WHERE id = ?", units[2])[0][0])
