"""parse -> extract -> validate, with timings. Headless and storage-free."""

from __future__ import annotations

import time

from core.domain import ProcessingArtifact, SourceDocument
from core.domain.stop import StopFlag
from core.extraction.base import Extractor
from core.validation import validate


def run_extraction(
    document: SourceDocument, extractor: Extractor, stop: StopFlag | None = None
) -> ProcessingArtifact:
    """Extract and validate one parsed document. Extractor faults are the extractor's to
    handle (the Ollama extractor falls back to offline); this never swallows bugs silently.
    Raises Cancelled when `stop` is set during the extraction."""
    started = time.perf_counter()
    result = extractor.extract(document, stop)
    extracted = time.perf_counter()
    report = validate(result.output, document)
    done = time.perf_counter()
    return ProcessingArtifact(
        document=document,
        extractor=result.extractor,
        extractor_version=result.extractor_version,
        model=result.model,
        prompt_version=result.prompt_version,
        output=result.output,
        raw_output=result.raw_output,
        validation_report=report,
        timings={
            "extract_s": round(extracted - started, 6),
            "validate_s": round(done - extracted, 6),
        },
        notices=(*document.notices, *result.notices),
        dropped=result.dropped,
    )
