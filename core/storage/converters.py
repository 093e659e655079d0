"""Rows -> frozen domain dataclasses, at the repository edge.

Rows map onto dataclasses by name. A table row's columns that a dataclass has a field of the
same name for are copied (`copied`); what is converted or named otherwise is said beside it. A
card's columns are read the same way: the SELECT list is made from the dataclass's fields
(`card_columns`, `SOURCE_COLUMNS`), so a row maps onto it in the fields' order whatever the
query, and a new field is a new column read everywhere at once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from functools import cache
from typing import Any

from core.domain import (
    NO_LOCATOR,
    ArticleInfo,
    EvidenceSpan,
    Locator,
    SourceParagraph,
    StoredQuestion,
    StoredUnit,
)
from core.domain.artifact import report_from_list, spans_from_list
from core.domain.card import Card, CardSource
from core.storage.db import BaseModel
from core.storage.models import Article, Evidence, Paragraph, Question, Unit

# json.dumps(value, ensure_ascii=False) without building an encoder for each call (a third of
# what encoding a paragraph's spans or a short locator cost)
to_json = json.JSONEncoder(ensure_ascii=False).encode


def loads(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def locator(text: str | None) -> Locator:
    return Locator.from_dict(loads(text, {})) if text else NO_LOCATOR


def locator_json(value: Locator) -> str | None:
    """A locator as stored: NULL for none (plain text), else its artifact dict as JSON."""
    return to_json(value.as_dict()) if value else None


@cache
def _same_named(model: type[BaseModel], view: type) -> tuple[str, ...]:
    columns = model._meta.columns  # column names: a foreign key's is its "..._id"
    return tuple(f.name for f in fields(view) if f.name in columns)


def copied(row: BaseModel, view: type) -> dict[str, Any]:
    """The values of `row`'s columns that dataclass `view` has a field of the same name for."""
    return {name: getattr(row, name) for name in _same_named(type(row), view)}


def paragraph(row: Paragraph) -> SourceParagraph:
    return SourceParagraph(
        paragraph_id=row.paragraph_id,
        text=row.text,
        kind=row.kind,
        index=row.position,
        locator=locator(row.locator_json),
        spans=spans_from_list(loads(row.spans_json, [])) if row.spans_json else (),
    )


def article(row: Article, proposed: int = 0, confirmed: int = 0) -> ArticleInfo:
    return ArticleInfo(
        **copied(row, ArticleInfo),
        proposed=proposed,
        confirmed=confirmed,
        source_missing=row.source_missing_at is not None,
    )


def unit(
    row: Unit, evidence: list[Evidence], questions: list[Question], locators: dict[str, Locator] | None = None
) -> StoredUnit:
    return StoredUnit(
        **(copied(row, StoredUnit) | {"anchor": row.anchor or ""}),
        evidence=tuple(
            EvidenceSpan(e.paragraph_id, e.quote, (locators or {}).get(e.paragraph_id))
            for e in sorted(evidence, key=lambda e: e.position)
        ),
        tags=tuple(loads(row.tags_json, [])),
        questions=tuple(
            StoredQuestion(q.id, row.id, q.question, q.answer, q.kind)
            for q in sorted(questions, key=lambda q: q.position)
        ),
        issues=report_from_list(loads(row.issues_json, [])).issues,
    )


# --- cards ---------------------------------------------------------------------------------

CARD_FIELDS = tuple(f.name for f in fields(Card))  # the card table's columns Card reads and writes
_CARD_FLAGS = tuple(i for i, f in enumerate(fields(Card)) if f.type == "bool")  # stored as 0/1


def card_columns(alias: str = "c") -> str:
    """The SELECT list of a Card: its fields as columns of the card table named `alias`."""
    return ", ".join(f"{alias}.{name}" for name in CARD_FIELDS)


def card(values: Sequence[Any]) -> Card:
    """A card from the columns `card_columns` lists (the first of a longer row)."""
    row = list(values[: len(CARD_FIELDS)])
    for i in _CARD_FLAGS:
        row[i] = bool(row[i])
    return Card(*row)


def card_dict(c: Card) -> dict[str, Any]:
    """A card's fields by name, as stored (dataclasses.asdict deep-copies and is ~20x slower)."""
    return {name: getattr(c, name) for name in CARD_FIELDS}


# What a card asks and where from (CardSource's fields, in order), over the card `c` joined by
# SOURCE_JOINS: its question `q`, unit `u`, article `a`; the locator is the paragraph's of the
# unit's first quote.
SOURCE_COLUMNS = {
    "question": "q.question",
    "answer": "q.answer",
    "kind": "q.kind",
    "unit_id": "u.id",
    "unit_content": "u.content",
    "memory_type": "u.memory_type",
    "pinned": "u.pinned",
    "article_id": "a.id",
    "article_title": "a.title",
    "locator": "(SELECT p.locator_json FROM evidence e JOIN paragraph p ON p.article_id = u.article_id "
    "AND p.paragraph_id = e.paragraph_id WHERE e.unit_id = u.id ORDER BY e.position LIMIT 1)",
    "deck_id": "u.deck_id",
}
SOURCE_JOINS = "JOIN question q ON q.id = c.question_id JOIN unit u ON u.id = c.unit_id JOIN article a ON a.id = u.article_id"


def source_columns() -> str:
    return ", ".join(SOURCE_COLUMNS.values())


def card_source(values: Sequence[Any]) -> CardSource:
    """A source from the columns `source_columns` lists (the last of a longer row)."""
    source = dict(zip(SOURCE_COLUMNS, values[-len(SOURCE_COLUMNS) :], strict=True))
    source["pinned"] = bool(source["pinned"])
    source["locator"] = locator(source["locator"])
    return CardSource(**source)
