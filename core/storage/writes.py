"""The write side of an import: the artifact row, unit rows with their evidence and questions,
and the paragraphs, each inside the caller's transaction (store_processed, revise_article)."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import peewee

from core.domain import (
    Locator,
    ProcessingArtifact,
    RecallQuestion,
    SourceParagraph,
    UnitStatus,
    ValidationIssue,
    ValidationReport,
)
from core.domain.artifact import output_to_dict, report_to_list, spans_to_list
from core.storage import converters
from core.storage.db import db
from core.storage.errors import translated
from core.storage.models import Artifact, Evidence, Paragraph, Question, Unit

CHUNK = 500  # rows per INSERT (SQLite variable limit is 32766 on 3.32+)


def _score(value: float) -> float:
    """Confidence as stored: a number in [0, 1] (NaN and junk become 0)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, number)) if math.isfinite(number) else 0.0


@dataclass(frozen=True, slots=True)
class NewUnits:
    """An extraction with what import decided about its units: which to store (`keep`, the
    grounded ones, by index), the validation issues left on each, which are stored confirmed
    (with cards) and which are parked below the triage floor (core.services.planning.Plan)."""

    artifact: ProcessingArtifact
    keep: Sequence[int]
    issues: Mapping[int, Sequence[ValidationIssue]]
    auto_accepted: frozenset[int] = frozenset()
    low_confidence: frozenset[int] = frozenset()


@translated
def insert_output(article_id: int, units: NewUnits, *, now: int) -> list[int]:
    """The artifact row and the kept units (evidence, questions) of one extraction, inside the
    caller's transaction. Returns the ids of the units stored confirmed (they need cards)."""
    artifact, auto_accepted = units.artifact, units.auto_accepted
    artifact_id = _insert_artifact(article_id, artifact, now)
    questions: dict[int, list[RecallQuestion]] = defaultdict(list)
    for q in artifact.output.recall_questions:
        questions[q.memory_unit_index].append(q)
    accepted: list[int] = []
    for index in units.keep:
        unit_id = _insert_unit(
            article_id,
            artifact_id,
            artifact,
            index,
            questions[index],
            issues=units.issues.get(index, ()),
            confirmed=index in auto_accepted,
            low_confidence=index in units.low_confidence,
            now=now,
        )
        if index in auto_accepted:
            accepted.append(unit_id)
    return accepted


def _insert_artifact(article_id: int, artifact: ProcessingArtifact, now: int) -> int:
    row = Artifact.create(
        article=article_id,
        extractor=artifact.extractor,
        extractor_version=artifact.extractor_version,
        model=artifact.model,
        prompt_version=artifact.prompt_version,
        summary=artifact.output.summary,
        output_json=json.dumps(output_to_dict(artifact.output), ensure_ascii=False, default=str),
        raw_output=artifact.raw_output,
        validation_json=json.dumps(report_to_list(artifact.validation_report), ensure_ascii=False),
        notices_json=json.dumps(list(artifact.notices), ensure_ascii=False),
        dropped_json=json.dumps(list(artifact.dropped), ensure_ascii=False, default=str),
        timings_json=json.dumps(artifact.timings),
        created_at=now,
    )
    return int(row.id)


def _insert_unit(
    article_id: int,
    artifact_id: int,
    artifact: ProcessingArtifact,
    index: int,
    questions: Sequence[RecallQuestion],
    *,
    issues: Sequence[ValidationIssue],
    confirmed: bool,
    low_confidence: bool,
    now: int,
) -> int:
    """Unit `index` of the artifact with its evidence and questions; returns its id."""
    unit = artifact.output.memory_units[index]
    extractor, model = artifact.written_by(unit)
    row = Unit.create(
        article=article_id,
        artifact=artifact_id,
        position=index,
        content=unit.content,
        memory_type=unit.memory_type,
        tags_json=json.dumps(list(unit.tags), ensure_ascii=False),
        confidence=_score(unit.confidence),
        status=UnitStatus.CONFIRMED.value if confirmed else UnitStatus.PROPOSED.value,
        low_confidence=low_confidence,
        issues_json=json.dumps(report_to_list(ValidationReport(tuple(issues))), ensure_ascii=False),
        extractor=extractor,
        model=model,
        created_at=now,
        updated_at=now,
    )
    spans = [
        {"unit": row.id, "position": j, "paragraph_id": e.paragraph_id, "quote": e.quote}
        for j, e in enumerate(unit.evidence)
    ]
    if spans:
        Evidence.insert_many(spans).execute()
    asked = [
        {"unit": row.id, "position": j, "question": q.question, "answer": q.expected_answer, "kind": q.kind}
        for j, q in enumerate(questions)
    ]
    if asked:
        Question.insert_many(asked).execute()
    return int(row.id)


@translated
def insert_paragraphs(article_id: int, paragraphs: Sequence[SourceParagraph]) -> None:
    """One executemany on peewee's connection, inside the caller's transaction.

    About 7x faster than chunked insert_many for a large article (bench/bench_import.py);
    sqlite3 errors are wrapped into peewee's, so write_transaction still translates them.
    """
    columns = (
        Paragraph.article,
        Paragraph.paragraph_id,
        Paragraph.position,
        Paragraph.kind,
        Paragraph.text,
        Paragraph.spans_json,
        Paragraph.locator_json,
    )
    sql = 'INSERT INTO "{}" ({}) VALUES (?, ?, ?, ?, ?, ?, ?)'.format(
        Paragraph._meta.table_name, ", ".join(f'"{c.column_name}"' for c in columns)
    )
    located: dict[Locator, str | None] = {}  # blocks of one section share one locator: encode it once

    def row(p: SourceParagraph) -> tuple[object, ...]:
        where = located.get(p.locator, "") if p.locator else None
        if where == "":
            where = located[p.locator] = converters.locator_json(p.locator)
        spans = converters.to_json(spans_to_list(p.spans)) if p.spans else None
        return (article_id, p.paragraph_id, p.index, p.kind, p.text, spans, where)

    with peewee.__exception_wrapper__:  # type: ignore[attr-defined]
        db.connection().executemany(sql, map(row, paragraphs))
