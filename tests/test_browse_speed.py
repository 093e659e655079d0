"""Browse's fast paths give the rows the plain reading gives: the sort by R through the review
index (core.storage.browse.rsort) against a Python sort by the scheduler's own retrievability,
the text filter through the search index against LIKE, and a bulk action with its undo
restoring every row exactly. (The speed itself is measured in bench/bench_browse.py.)"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from test_review_support import add_units, q

import scheduler
from core.domain.browse import BrowseFilter, BrowseSort, BulkAction, Column, RowKey, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage.browse import rows as browse_rows
from core.storage.browse import rsort
from core.storage.browse import text as browse_text
from core.storage.db import write_transaction
from core.storage.review import cards as review_cards
from core.storage.review import writes as review_writes
from core.storage.review.models import stability_bucket
from core.storage.search import index as search_index

DAY = 86400


def _varied_cards(services: Services, clock: FixedClock, n_units: int = 90) -> list[int]:
    """Cards of every kind the R sort meets: stabilities from 0.001 to 60,000 days (the clamped
    end buckets too), reviews from a year ago to a clock-skewed future, exact ties, cards never
    reviewed, suspended and inactive ones; written by the review storage's own writer (which
    keeps the index columns sbucket and t90)."""
    services.browse.tz = UTC
    now = int(clock.now().timestamp())
    add_units(n_units, 2, now=now)
    rng = random.Random(17)
    rows = []
    for card_id in [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]:
        card = review_cards.get_card(card_id)
        assert card is not None
        kind = rng.random()
        if kind < 0.15:
            continue  # never reviewed
        stability = 10 ** rng.uniform(-3, 4.8)
        last = now - int(rng.uniform(-2, 400) * DAY)
        if kind < 0.25:  # a tie: the same S and last review as others
            stability, last = 7.5, now - 3 * DAY
        rows.append(
            replace(card, state=2, stability=stability, difficulty=5.0, last_review=last, due=last + DAY)
        )
    with write_transaction():
        review_writes.rewrite_cards(rows, now)
    cards = [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]
    services.browse.act(
        BulkAction.SUSPEND, Selection(BrowseFilter(), tuple(RowKey(c, 0) for c in cards[::7]))
    )
    services.curation.reject(int(q("SELECT unit_id FROM card WHERE id = ?", cards[5])[0][0]))  # inactive
    return cards


def _r_order(services: Services, clock: FixedClock, ids: set[int], descending: bool) -> list[int]:
    """The cards by the scheduler's R now (lowest first; never reviewed last), ties by id."""
    now = clock.now()
    at = lambda t: datetime.fromtimestamp(t, UTC)  # noqa: E731
    keyed = []
    for cid, s, last in q("SELECT id, stability, last_review FROM card"):
        if cid not in ids:
            continue
        reviewed = last is not None and s is not None and float(s) > 0  # type: ignore[arg-type]
        k = rsort.key(int(last), float(s), int(now.timestamp())) if reviewed else 1e300  # type: ignore[arg-type]
        r = scheduler.retrievability(float(s), at(int(last)), now) if reviewed else 2.0  # type: ignore[arg-type]
        keyed.append((k, cid, r))
    keyed.sort(key=lambda t: (t[0], t[1]), reverse=descending)
    rs = [r for _, _, r in keyed]
    assert rs == sorted(rs, reverse=descending)  # the key's order is R's order (ties aside)
    return [cid for _, cid, _ in keyed]


def _paged(services: Services, sort: BrowseSort, f: BrowseFilter, limit: int) -> list[RowKey]:
    keys: list[RowKey] = []
    after = None
    while True:
        page = services.browse.page(f, sort, after, limit=limit)
        keys.extend(r.key for r in page.rows)
        if page.after is None:
            return keys
        after = page.after


@pytest.mark.parametrize("line", ["", "is:suspended", "state:review", "r<0.5", "unit"])
def test_the_sort_by_r_is_the_schedulers_r_order(services: Services, clock: FixedClock, line: str) -> None:
    _varied_cards(services, clock)
    f = services.browse.parse(line).filter
    shown = {k for k in _paged(services, BrowseSort(Column.ADDED), f, 500)}
    ids = {k.card_id for k in shown if k.card_id is not None}
    assert ids
    for descending in (False, True):
        expected = _r_order(services, clock, ids, descending)
        for limit in (1, 4, 37, 500):
            keys = _paged(services, BrowseSort(Column.R, descending), f, limit)
            cards = [k.card_id for k in keys if k.card_id is not None]
            assert cards == expected, (line, descending, limit)
            assert set(keys) == shown  # and the units without cards, once each


def test_the_r_bounds_hold_every_card_of_a_bucket() -> None:
    """review_range never leaves out a card whose K is in the range, at any stability of its bucket."""
    rng = random.Random(5)
    now = 1_800_000_000
    for _ in range(3000):
        s = 10 ** rng.uniform(-3.5, 5)
        last = now - int(rng.uniform(-5, 500) * DAY)
        k = rsort.key(last, s, now)
        first, last_t = rsort.review_range(k, k, stability_bucket(s), now)
        assert first <= last <= last_t, (s, last)


_TEXTS = [
    ("Memory consolidation happens during sleep", "What does memory do in sleep?"),
    ("The commemoration of memories, MEMORY in capitals", "Which word is in capitals?"),
    ("叶绿体是光合作用的场所", "叶绿体在哪里？"),
    ("葉綠體是光合作用的場所", "葉綠體在哪裡？"),
    ("A naïve café near the covid19 wards", "Where is the café?"),
    ("p_1 and pX1 labels; Ｍｅｍｏｒｙ in full width", "What is p_1?"),
    ("Recall is retrieval practice", "What is recall?"),
]
_WORDS = [
    "memory", "Memory", "MEMORY", "emor", "mem", "ory", "commemoration", "memories", "recall",
    "retrieval practice", "zzzz", "叶绿体", "葉綠體", "绿", "綠", "光合作用", "场所", "場所",
    "naïve", "cafe", "café", "covid", "covid19", "p_1", "px1", "q", "memory 叶绿体", "是", "in",
]  # fmt: skip


def _text_library(services: Services, clock: FixedClock) -> None:
    """Units with English and Chinese (Simplified and Traditional) content and questions, some
    confirmed (cards) and some proposals (no card), indexed by the search index's own writers."""
    from core.storage import curation as curation_repo
    from core.storage.models import Article, Question, Unit

    now = int(clock.now().timestamp())
    with write_transaction():
        art = Article.create(
            source_path="/t/x.md", document_id="doc_x", content_hash="h", title="X", added_at=now
        )
        ids = []
        for i, (content, question) in enumerate(_TEXTS):
            unit = Unit.create(
                article=art,
                position=i,
                content=content,
                memory_type="concept",
                created_at=now,
                updated_at=now,
            )
            Question.create(unit=unit, position=0, question=question, answer="an answer")
            ids.append(int(unit.id))
    assert curation_repo.set_status(ids[::2], "confirmed", "accept", now) == len(ids[::2])
    with write_transaction():
        for unit_id in ids[1::2]:  # the proposals: indexed as an import indexes them
            search_index.reindex_unit(unit_id)


@pytest.mark.parametrize("line", _WORDS)
def test_the_text_filter_through_the_index_keeps_likes_rows(
    services: Services, clock: FixedClock, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _text_library(services, clock)
    f = BrowseFilter(text=line)
    fast = set(_paged(services, BrowseSort(Column.ADDED), f, 3))
    fast_count = services.browse.count(f)
    with (
        monkeypatch.context() as m
    ):  # every word common: LIKE in sort order, out of steps, then the index leads
        m.setattr(browse_text, "FEW_UNITS", 0)
        m.setattr(browse_text, "PHRASE_READ", 0)
        m.setattr(browse_rows, "ORDER_BUDGET_S", -1.0)
        for column in (Column.ADDED, Column.R):
            assert set(_paged(services, BrowseSort(column), f, 3)) == fast, (line, column)
    monkeypatch.setattr(browse_text, "unit_match", lambda word: None)  # LIKE alone, every row read
    like = set(_paged(services, BrowseSort(Column.ADDED), f, 3))
    assert fast == like and fast_count == len(like), line
    assert bool(like) == (
        line not in ("zzzz", "q", "cafe", "memory 叶绿体")
    )  # LIKE: no accent folding, one unit for both


def test_english_and_han_words_go_through_the_index() -> None:
    assert browse_text.unit_match("Memory") is not None
    han = browse_text.unit_match("葉綠體")
    assert han is not None and han.query == 'words : "叶 绿 体"'  # folded, as the index is
    assert browse_text.unit_match("p_1") is None and browse_text.unit_match("naïve") is None


def _dump() -> tuple[list[tuple[object, ...]], ...]:
    return (
        q("SELECT * FROM card ORDER BY id"),
        q("SELECT * FROM unit ORDER BY id"),
        q("SELECT day, n FROM review_due_day WHERE n != 0 ORDER BY day"),
        q("SELECT rowid, words FROM search_unit ORDER BY rowid"),
    )


@pytest.mark.parametrize("action", list(BulkAction))
def test_a_bulk_action_on_the_whole_filter_and_its_undo_restore_every_row(
    services: Services, clock: FixedClock, action: BulkAction
) -> None:
    """Every column of every card and unit (and the due-day counter, the search index) is as
    it was after the undo, whatever the action changed in one set-wise statement."""
    _varied_cards(services, clock, n_units=40)
    proposals = add_units(3, 1, now=int(clock.now().timestamp()), confirm=False)  # no cards
    with write_transaction():
        for unit_id in proposals:  # indexed, as an import indexes them
            search_index.reindex_unit(unit_id)
    before = _dump()
    result = services.browse.act(action, Selection(BrowseFilter()), tag="bench", days=3)
    if result.journal_id:
        assert _dump() != before
        assert services.undo.undo(Scope.BULK) is not None
    assert _dump() == before
