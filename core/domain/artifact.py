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
    SourceDocument,
    SourceParagraph,
    ValidationIssue,
    ValidationReport,
)


def output_to_dict(output: ArticleMemoryOutput) -> dict[str, Any]:
    """summary, core_ideas, memory_units, recall_questions: the dataclass field names, as JSON."""
    return asdict(output)


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


def report_from_list(items: Any) -> ValidationReport:
    """Issues back from stored JSON; anything that is not an issue object is skipped."""
    return ValidationReport(
        tuple(
            ValidationIssue(
                str(i.get("code", "")),
                str(i.get("message", "")),
                str(i.get("location", "")),
                "warning" if i.get("severity") == "warning" else "error",
            )
            for i in (items if isinstance(items, list) else ())
            if isinstance(i, dict)
        )
    )


# The top-level fields of an artifact file, exactly as issue 2 and ../shared/eval read them.
ARTIFACT_FIELDS = (
    "source_path",
    "document_id",
    "title",
    "paragraphs",
    "extractor",
    "model",
    "prompt_version",
    "output",
    "raw_output",
    "validation_report",
    "timings",
)


def artifact_to_dict(artifact: ProcessingArtifact) -> dict[str, Any]:
    """The artifact JSON: exactly ARTIFACT_FIELDS at the top level.

    `extractor` is the extractor's name (the one that actually produced the output, e.g.
    "offline" after an Ollama fallback). Its version, any notices (fallbacks), the units
    dropped during repair and the paragraphs the offline extractor covered for failed windows
    are kept inside `validation_report`, beside the issues.
    """
    doc = artifact.document
    return {
        "source_path": doc.source_path,
        "document_id": doc.document_id,
        "title": doc.title,
        "paragraphs": [
            {"paragraph_id": p.paragraph_id, "text": p.text, "kind": p.kind} for p in doc.paragraphs
        ],
        "extractor": artifact.extractor,
        "model": artifact.model,
        "prompt_version": artifact.prompt_version,
        "output": output_to_dict(artifact.output),
        "raw_output": artifact.raw_output,
        "validation_report": {
            "ok": artifact.validation_report.ok,
            "issues": report_to_list(artifact.validation_report),
            "extractor_version": artifact.extractor_version,
            "notices": list(artifact.notices),
            "dropped": list(artifact.dropped),
            "fallback_paragraphs": list(artifact.fallback_paragraphs),
        },
        "timings": dict(artifact.timings),
    }


def artifact_from_dict(data: dict[str, Any]) -> ProcessingArtifact:
    """Read an artifact JSON written by `artifact_to_dict` back (our own, trusted files)."""
    report = data.get("validation_report") or {}
    paragraphs = tuple(
        SourceParagraph(str(p["paragraph_id"]), str(p["text"]), str(p.get("kind", "paragraph")), i)
        for i, p in enumerate(data.get("paragraphs") or ())
    )
    document = SourceDocument(
        document_id=str(data.get("document_id", "")),
        source_path=str(data.get("source_path", "")),
        title=str(data.get("title", "")),
        paragraphs=paragraphs,
    )
    return ProcessingArtifact(
        document=document,
        extractor=str(data.get("extractor", "")),
        extractor_version=str(report.get("extractor_version", "")),
        model=data.get("model"),
        prompt_version=data.get("prompt_version"),
        output=output_from_dict(data.get("output") or {}),
        raw_output=str(data.get("raw_output", "")),
        validation_report=report_from_list(report.get("issues")),
        timings={str(k): float(v) for k, v in (data.get("timings") or {}).items()},
        notices=tuple(str(n) for n in report.get("notices") or ()),
        dropped=tuple(d for d in report.get("dropped") or () if isinstance(d, dict)),
        fallback_paragraphs=tuple(str(p) for p in report.get("fallback_paragraphs") or ()),
    )
