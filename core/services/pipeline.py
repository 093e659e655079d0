"""parse -> extract -> validate, with timings. Headless and storage-free."""

from __future__ import annotations

import time
from dataclasses import replace

from core.domain import ArticleMemoryOutput, CountNotice, EvidenceSpan, ProcessingArtifact, SourceDocument
from core.domain.stop import StopFlag
from core.extraction.base import Extractor
from core.text.spans import exact_quote
from core.validation import validate


def run_extraction(
    document: SourceDocument, extractor: Extractor, stop: StopFlag | None = None
) -> ProcessingArtifact:
    """Extract and validate one parsed document. Extractor faults are the extractor's to
    handle (the Ollama extractor falls back to offline); this never swallows bugs silently.
    Quotes are kept in the article's own words (see `in_own_words`). Raises Cancelled when
    `stop` is set during the extraction."""
    started = time.perf_counter()
    result = extractor.extract(document, stop)
    extracted = time.perf_counter()
    output = in_own_words(result.output, document)
    report = validate(output, document)
    done = time.perf_counter()
    return ProcessingArtifact(
        document=document,
        extractor=result.extractor,
        extractor_version=result.extractor_version,
        model=result.model,
        prompt_version=result.prompt_version,
        output=output,
        raw_output=result.raw_output,
        validation_report=report,
        timings={
            "extract_s": round(extracted - started, 6),
            "validate_s": round(done - extracted, 6),
        },
        notices=(*document.notices, *result.notices, *_text(result.count_notice)),
        dropped=result.dropped,
        fallback_paragraphs=result.fallback_paragraphs,
        count_notice=result.count_notice,
    )


def _text(notice: CountNotice | None) -> tuple[str, ...]:
    return () if notice is None else (notice.text(),)


def without_count_notice(artifact: ProcessingArtifact) -> ProcessingArtifact:
    """The artifact without its count notice: for an extraction of part of an article (the
    paragraphs an update changed), whose count says nothing of the article."""
    notice = artifact.count_notice
    if notice is None:
        return artifact
    notices = list(artifact.notices)
    notices.remove(notice.text())  # the one run_extraction added
    return replace(artifact, notices=tuple(notices), count_notice=None)


def in_own_words(output: ArticleMemoryOutput, document: SourceDocument) -> ArticleMemoryOutput:
    """Every quote that matches its paragraph only after normalisation (a model wrote
    "PHOTOSYNTHESIS   HAPPENS", or full-width letters) becomes the paragraph's exact words that
    matched; any other quote is left for the validator to judge."""
    texts = {p.paragraph_id: p.text for p in document.paragraphs}

    def exact(spans: tuple[EvidenceSpan, ...]) -> tuple[EvidenceSpan, ...]:
        return tuple(
            replace(e, quote=exact_quote(e.quote, texts[e.paragraph_id])) if e.paragraph_id in texts else e
            for e in spans
        )

    return replace(
        output,
        memory_units=tuple(replace(u, evidence=exact(u.evidence)) for u in output.memory_units),
        core_ideas=tuple(replace(c, evidence=exact(c.evidence)) for c in output.core_ideas),
    )
