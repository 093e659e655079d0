"""Rows -> frozen domain dataclasses, at the repository edge."""

from __future__ import annotations

import json
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


def paragraph(row: Paragraph) -> SourceParagraph:
    return SourceParagraph(
        row.paragraph_id,
        row.text,
        row.kind,
        row.position,
        locator(row.locator_json),
        spans_from_list(loads(row.spans_json, [])) if row.spans_json else (),
    )


def article(row: Article, proposed: int = 0, confirmed: int = 0) -> ArticleInfo:
    return ArticleInfo(
        id=row.id,
        document_id=row.document_id,
        title=row.title,
        source_path=row.source_path,
        version=row.version,
        paragraph_count=row.paragraph_count,
        proposed=proposed,
        confirmed=confirmed,
        added_at=row.added_at,
        encoding=row.encoding,
        language=row.language,
        source_missing=row.source_missing_at is not None,
        source_title=row.source_title,
    )


def unit(
    row: Unit, evidence: list[Evidence], questions: list[Question], locators: dict[str, Locator] | None = None
) -> StoredUnit:
    return StoredUnit(
        id=row.id,
        article_id=row.article_id,
        position=row.position,
        content=row.content,
        memory_type=row.memory_type,
        evidence=tuple(
            EvidenceSpan(e.paragraph_id, e.quote, (locators or {}).get(e.paragraph_id))
            for e in sorted(evidence, key=lambda e: e.position)
        ),
        tags=tuple(loads(row.tags_json, [])),
        confidence=row.confidence,
        status=row.status,
        questions=tuple(
            StoredQuestion(q.id, row.id, q.question, q.answer, q.kind)
            for q in sorted(questions, key=lambda q: q.position)
        ),
        issues=report_from_list(loads(row.issues_json, [])).issues,
        extractor=row.extractor,
        model=row.model,
        pinned=bool(row.pinned),
        edited=bool(row.edited),
        anchor=row.anchor or "",
    )
