"""Adding one proposed unit to an article already in the library (agents over MCP), and the
reads the agent tools need beyond the library's own: cards due now.

The write is one transaction: the unit (status proposed: it waits in Triage like any extractor's
proposal; nothing here ever confirms), its evidence and questions, and its search-index entry.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from core.domain import UnitStatus
from core.domain.card import Card, CardSource
from core.storage.converters import SOURCE_JOINS, card, card_columns, card_source, source_columns
from core.storage.db import db, reading, write_transaction
from core.storage.decks import IN_DECKS
from core.storage.errors import translated
from core.storage.models import Evidence, Question, Unit
from core.storage.search import index as search_index


@dataclass(frozen=True, slots=True)
class NewUnit:
    article_id: int
    content: str
    memory_type: str
    tags: tuple[str, ...]
    confidence: float
    evidence: tuple[tuple[str, str], ...]  # (paragraph id, quote)
    questions: tuple[tuple[str, str, str], ...]  # (question, answer, kind)
    issues: tuple[dict[str, str], ...]  # validation warnings kept with the unit
    extractor: str
    model: str | None


@translated
def add_proposed_unit(unit: NewUnit, now: int) -> int:
    """Store one proposal; returns its id."""
    with write_transaction():
        last = db.execute_sql(
            "SELECT MAX(position) FROM unit WHERE article_id = ?", (unit.article_id,)
        ).fetchone()[0]
        row = Unit.create(
            article=unit.article_id,
            artifact=None,
            position=(last if last is not None else -1) + 1,
            content=unit.content,
            memory_type=unit.memory_type,
            tags_json=json.dumps(list(unit.tags), ensure_ascii=False),
            confidence=unit.confidence,
            status=UnitStatus.PROPOSED.value,
            issues_json=json.dumps(list(unit.issues), ensure_ascii=False),
            extractor=unit.extractor,
            model=unit.model,
            created_at=now,
            updated_at=now,
        )
        Evidence.insert_many(
            [
                {"unit": row.id, "position": j, "paragraph_id": p, "quote": q}
                for j, (p, q) in enumerate(unit.evidence)
            ]
        ).execute()
        if unit.questions:
            Question.insert_many(
                [
                    {"unit": row.id, "position": j, "question": q, "answer": a, "kind": k}
                    for j, (q, a, k) in enumerate(unit.questions)
                ]
            ).execute()
        search_index.reindex_unit(row.id)
    return int(row.id)


@translated
def due_cards(
    now: int, limit: int, article_ids: Sequence[int] = ()
) -> tuple[int, list[tuple[Card, CardSource]]]:
    """(how many cards are due now, the `limit` most overdue of them, each with what it asks and
    where from). Learning and review queues only; new cards are not "due"."""
    where = "c.queue IN (1, 2) AND c.due <= ?"
    params: list[object] = [now]
    if article_ids:  # in these articles' decks: their own units not moved, and units moved in
        where += " AND " + IN_DECKS.format(marks=", ".join("?" * len(article_ids)))
        params.extend([*article_ids, *article_ids])
    with reading():
        joins = "FROM card c JOIN unit u ON u.id = c.unit_id"
        total = int(db.execute_sql(f"SELECT COUNT(*) {joins} WHERE {where}", params).fetchone()[0])
        rows = db.execute_sql(
            f"SELECT {card_columns()}, {source_columns()} FROM card c {SOURCE_JOINS} "
            f"WHERE {where} ORDER BY c.due, c.id LIMIT ?",
            [*params, limit],
        ).fetchall()
    return total, [(card(r), card_source(r)) for r in rows]


@translated
def proposed_since(extractor: str, since: int, newest: int = 1000) -> int:
    """How many of the library's `newest` units were proposed by `extractor` after `since`
    (epoch seconds): the agents' rate across server processes. Read from the newest rows by id
    (no scan of a large library); an import of more than `newest` units in the same minute hides
    older proposals from the count."""
    row = db.execute_sql(
        "SELECT COUNT(*) FROM (SELECT extractor, created_at FROM unit ORDER BY id DESC LIMIT ?) "
        "WHERE extractor = ? AND created_at > ?",
        (newest, extractor, since),
    ).fetchone()
    return int(row[0])
