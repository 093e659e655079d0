"""Card info's reads: the card with what it asks and where from, and every answer it had."""

from __future__ import annotations

from dataclasses import dataclass

from core.storage.db import db
from core.storage.errors import translated


@dataclass(frozen=True, slots=True)
class CardFacts:
    card_id: int
    unit_id: int
    question: str
    answer: str
    unit_content: str
    article_title: str
    state: int
    queue: int
    stability: float | None
    difficulty: float | None
    due: int
    last_review: int | None
    reps: int
    lapses: int


@dataclass(frozen=True, slots=True)
class LogFacts:
    reviewed_at: int
    rating: int
    scheduled_days: int
    stability: float | None  # after the answer


@translated
def card_facts(card_id: int) -> CardFacts | None:
    row = db.execute_sql(
        "SELECT c.id, c.unit_id, q.question, q.answer, u.content, a.title, c.state, c.queue, c.stability, "
        "c.difficulty, c.due, c.last_review, c.reps, c.lapses FROM card c JOIN question q ON q.id = c.question_id "
        "JOIN unit u ON u.id = c.unit_id JOIN article a ON a.id = u.article_id WHERE c.id = ?",
        (card_id,),
    ).fetchone()
    return CardFacts(*row) if row else None


@translated
def logs(card_id: int) -> list[LogFacts]:
    rows = db.execute_sql(
        "SELECT reviewed_at, rating, scheduled_days, stability FROM review_log WHERE card_id = ? ORDER BY reviewed_at, id",
        (card_id,),
    )
    return [LogFacts(*r) for r in rows]
