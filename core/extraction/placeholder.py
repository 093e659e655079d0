"""Placeholder extractor: quotes the first sentence of each prose paragraph.

Kept as a trivial, always-grounded reference (and a floor for tests); the default is `offline`.
"""

from __future__ import annotations

import re

from core.domain import (
    NON_EVIDENCE_KINDS,
    ArticleMemoryOutput,
    EvidenceSpan,
    ExtractionResult,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
)
from core.domain.stop import StopFlag

_SENTENCE = re.compile(r".+?(?:[.!?](?=\s|$)|[。！？]|$)", re.S)


class PlaceholderExtractor:
    name = "placeholder"
    version = "1"

    def __init__(self, **_: object) -> None:
        pass

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult:
        units: list[MemoryUnit] = []
        questions: list[RecallQuestion] = []
        for p in document.paragraphs:
            if p.kind in NON_EVIDENCE_KINDS or not p.text.strip():
                continue
            m = _SENTENCE.match(p.text.strip())
            quote = (m.group(0) if m else p.text).strip()
            if not quote:
                continue
            units.append(MemoryUnit(quote, "claim", (EvidenceSpan(p.paragraph_id, quote),), (), 0.3))
            questions.append(RecallQuestion(f"What does {p.paragraph_id} say?", quote, len(units) - 1, "qa"))
            if len(units) >= 12:
                break
        summary = " ".join(u.content for u in units[:3])
        output = ArticleMemoryOutput(summary, (), tuple(units), tuple(questions))
        return ExtractionResult(output, self.name, self.version)
