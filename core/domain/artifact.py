"""Processing artifacts as JSON: the contract `memoryrush process` writes and the scorer reads."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from core.domain import (
    EVIDENCE_FIELDS,
    ArticleMemoryOutput,
    CoreIdea,
    EvidenceSpan,
    InlineSpan,
    Locator,
    MemoryUnit,
    ProcessingArtifact,
    RecallQuestion,
    SourceDocument,
    SourceParagraph,
    ValidationIssue,
    ValidationReport,
)


def output_to_dict(output: ArticleMemoryOutput) -> dict[str, Any]:
    """summary, core_ideas, memory_units, recall_questions: the dataclass field names, as JSON.

    Evidence is {paragraph_id, quote} (EVIDENCE_FIELDS): what a model writes and the scorers
    read. Where a quote sits is its paragraph's `locator`, written once per paragraph."""
    data = asdict(output)
    for key in ("core_ideas", "memory_units"):
        for item in data[key]:
            item["evidence"] = [{f: e[f] for f in EVIDENCE_FIELDS} for e in item["evidence"]]
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
    """Issues as stored JSON (`kept` only when an issue was kept with a reason)."""
    out = []
    for issue in report.issues:
        item = asdict(issue)
        if not issue.kept:
            del item["kept"]
        out.append(item)
    return out


def report_from_list(items: Any) -> ValidationReport:
    """Issues back from stored JSON; anything that is not an issue object is skipped."""
    return ValidationReport(
        tuple(
            ValidationIssue(
                str(i.get("code", "")),
                str(i.get("message", "")),
                str(i.get("location", "")),
                "warning" if i.get("severity") == "warning" else "error",
                str(i.get("kept", "") or ""),
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


def spans_to_list(spans: tuple[InlineSpan, ...]) -> list[list[Any]]:
    """[start, end, kind] or [start, end, kind, href]: compact, for the artifact and the database."""
    return [[s.start, s.end, s.kind] if s.href is None else [s.start, s.end, s.kind, s.href] for s in spans]


def spans_from_list(raw: Any) -> tuple[InlineSpan, ...]:
    """Spans back from JSON; malformed entries are skipped (never raises)."""
    out: list[InlineSpan] = []
    for item in raw if isinstance(raw, list) else ():
        if not isinstance(item, list) or len(item) < 3:
            continue
        start, end, kind = item[0], item[1], item[2]
        if isinstance(start, int) and isinstance(end, int) and isinstance(kind, str) and 0 <= start < end:
            href = item[3] if len(item) > 3 and isinstance(item[3], str) else None
            out.append(InlineSpan(start, end, kind, href))
    return tuple(out)


def paragraph_to_dict(p: SourceParagraph) -> dict[str, Any]:
    """One artifact paragraph: id, reader text, kind, `locator` ({} when unknown), `spans`."""
    return {
        "paragraph_id": p.paragraph_id,
        "text": p.text,
        "kind": p.kind,
        "locator": p.locator.as_dict(),
        "spans": spans_to_list(p.spans),
    }


def paragraph_from_dict(p: dict[str, Any], index: int) -> SourceParagraph:
    return SourceParagraph(
        str(p["paragraph_id"]),
        str(p["text"]),
        str(p.get("kind", "paragraph")),
        index,
        Locator.from_dict(p.get("locator")),
        spans_from_list(p.get("spans")),
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
        "paragraphs": [paragraph_to_dict(p) for p in doc.paragraphs],
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
    paragraphs = tuple(paragraph_from_dict(p, i) for i, p in enumerate(data.get("paragraphs") or ()))
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
