"""Processing artifacts as JSON: the contract `memoryrush process` writes and the scorer reads."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from core.domain import (
    ArticleMemoryOutput,
    CoreIdea,
    EvidenceSpan,
    MemoryUnit,
    ProcessingArtifact,
    RecallQuestion,
    ValidationIssue,
    ValidationReport,
)


def output_to_dict(output: ArticleMemoryOutput) -> dict[str, Any]:
    data = asdict(output)
    # tuples -> lists happen in json; keep field names exactly as the contract says
    return data


def _spans(raw: Any) -> tuple[EvidenceSpan, ...]:
    return tuple(
        EvidenceSpan(str(s.get("paragraph_id", "")), str(s.get("quote", "")))
        for s in raw or ()
        if isinstance(s, dict)
    )


def output_from_dict(data: dict[str, Any]) -> ArticleMemoryOutput:
    """Build an output from a trusted dict (our own artifact JSON). Types are coerced."""
    units = tuple(
        MemoryUnit(
            content=str(u.get("content", "")),
            memory_type=str(u.get("memory_type", "")),
            evidence=_spans(u.get("evidence")),
            tags=tuple(str(t) for t in u.get("tags") or ()),
            confidence=float(u.get("confidence", 0.0) or 0.0),
        )
        for u in data.get("memory_units") or ()
    )
    questions = tuple(
        RecallQuestion(
            question=str(q.get("question", "")),
            expected_answer=str(q.get("expected_answer", "")),
            memory_unit_index=int(q.get("memory_unit_index", -1)),
            kind=str(q.get("kind", "qa")),
        )
        for q in data.get("recall_questions") or ()
    )
    ideas = tuple(
        CoreIdea(
            idea=str(c.get("idea", "")),
            why_it_matters=str(c.get("why_it_matters", "")),
            evidence=_spans(c.get("evidence")),
            salience_score=float(c.get("salience_score", 0.0) or 0.0),
        )
        for c in data.get("core_ideas") or ()
    )
    return ArticleMemoryOutput(str(data.get("summary", "")), ideas, units, questions)


def report_to_list(report: ValidationReport) -> list[dict[str, str]]:
    return [asdict(i) for i in report.issues]


def report_from_list(items: list[dict[str, Any]]) -> ValidationReport:
    return ValidationReport(
        tuple(
            ValidationIssue(
                str(i.get("code", "")),
                str(i.get("message", "")),
                str(i.get("location", "")),
                i.get("severity", "error"),
            )
            for i in items
        )
    )


def artifact_to_dict(artifact: ProcessingArtifact) -> dict[str, Any]:
    doc = artifact.document
    return {
        "source_path": doc.source_path,
        "document_id": doc.document_id,
        "title": doc.title,
        "encoding": doc.encoding,
        "language": doc.language,
        "metadata": doc.metadata,
        "paragraphs": [
            {"paragraph_id": p.paragraph_id, "text": p.text, "kind": p.kind} for p in doc.paragraphs
        ],
        "extractor": artifact.extractor,
        "extractor_version": artifact.extractor_version,
        "model": artifact.model,
        "prompt_version": artifact.prompt_version,
        "output": output_to_dict(artifact.output),
        "raw_output": artifact.raw_output,
        "validation_report": {
            "ok": artifact.validation_report.ok,
            "issues": report_to_list(artifact.validation_report),
        },
        "notices": list(artifact.notices),
        "dropped": list(artifact.dropped),
        "timings": artifact.timings,
    }
