"""Card info's read beside the card and its source (core.storage.review.cards): every answer it had."""

from __future__ import annotations

from dataclasses import dataclass

from core.storage.db import db
from core.storage.errors import translated


@dataclass(frozen=True, slots=True)
class LogFacts:
    reviewed_at: int
    rating: int
    scheduled_days: int
    stability: float | None  # after the answer


@translated
def logs(card_id: int) -> list[LogFacts]:
    rows = db.execute_sql(
        "SELECT reviewed_at, rating, scheduled_days, stability FROM review_log WHERE card_id = ? ORDER BY reviewed_at, id",
        (card_id,),
    )
    return [LogFacts(*r) for r in rows]
