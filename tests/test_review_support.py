"""Helpers for the review tests (no tests here): units with questions, confirmed through curation."""

from __future__ import annotations

import itertools
from datetime import UTC
from zoneinfo import ZoneInfo

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage import curation as curation_repo
from core.storage.db import db, write_transaction
from core.storage.models import Article, Question, Unit

UTC_ZONE = ZoneInfo("UTC")
DAY = 86400
_doc = itertools.count(1)


def add_units(n: int, questions: int = 2, *, now: int, confirm: bool = True) -> list[int]:
    """n units of `questions` recall questions each in a new article; confirmed via curation (cards made there)."""
    k = next(_doc)
    with write_transaction():
        art = Article.create(
            source_path=f"/t/{k}.md",
            document_id=f"doc_t{k}",
            content_hash=f"h{k}",
            title=f"Article {k}",
            added_at=now,
        )
        ids = []
        for i in range(n):
            unit = Unit.create(
                article=art,
                position=i,
                content=f"unit {k}.{i}",
                memory_type="concept",
                created_at=now,
                updated_at=now,
            )
            for j in range(questions):
                Question.create(unit=unit, position=j, question=f"q {k}.{i}.{j}?", answer=f"a {k}.{i}.{j}")
            ids.append(int(unit.id))
    if confirm:
        assert curation_repo.set_status(ids, "confirmed", "accept", now) == n
    return ids


def prepare(svc: Services, *, fuzz: bool = False) -> None:
    svc.review.tz = UTC_ZONE
    svc.stats.tz = UTC_ZONE
    svc.review.fuzz = fuzz
    svc.review.rng.seed(1234)


def q(sql: str, *params: object) -> list[tuple[object, ...]]:
    return list(db.execute_sql(sql, params).fetchall())


def graduate(svc: Services, clock: FixedClock, card_id: int) -> None:
    """Good, Good: a new card into the review state."""
    svc.review.answer(card_id, 3)
    clock.advance(minutes=10)
    svc.review.answer(card_id, 3)


def session_ids(svc: Services) -> list[int]:
    """Answer nothing: the ids the session would show, in order (reads the built queue)."""
    svc.review.start_session()
    return svc.review.today.ids()


def due_one_a_day(services: Services, clock: FixedClock, n: int = 20) -> list[int]:
    """n review cards of stability 20 days, last reviewed 10 days ago, due on the next ten days in turn."""
    services.review.tz = UTC
    services.review.fuzz = False
    add_units(n, 1, now=int(clock.now().timestamp()))
    cards = [int(r[0]) for r in q("SELECT id FROM card ORDER BY id")]  # type: ignore[call-overload]
    for card in cards:
        graduate(services, clock, card)
    now = int(clock.now().timestamp())
    with write_transaction():
        for i, card in enumerate(cards):
            db.execute_sql(
                "UPDATE card SET stability = 20, last_review = ?, due = ?, buried_until = NULL, queue = 2 WHERE id = ?",
                (now - 10 * DAY, (now // DAY + 1 + i % 10) * DAY + 3600, card),
            )
    return cards
