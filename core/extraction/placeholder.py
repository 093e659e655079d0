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
from core.text.cjk import HAN_RE
from core.validation.lexicon import EN_STOP, ZH_STOP

_SENTENCE = re.compile(r".+?(?:[.!?](?=\s|$)|[。！？]|$)", re.S)


_WORDS = re.compile(r"[^\W\d_]{4,}")


def _cloze(quote: str, index: int) -> RecallQuestion:
    """A cloze on the longest word the quote uses once (a CJK run: its middle two characters),
    so the reference cards keep the validator's card rules; "What does it say?" when none fits."""
    runs = sorted(set(_WORDS.findall(quote)), key=lambda w: (-len(w), quote.index(w)))
    for word in runs:
        term = word[len(word) // 2 - 1 : len(word) // 2 + 1] if HAN_RE.match(word) else word
        if quote.count(term) == 1 and term.lower() not in EN_STOP and term not in ZH_STOP:
            return RecallQuestion(quote.replace(term, "____", 1), term, index, "cloze")
    return RecallQuestion("What does this paragraph say?", quote, index, "qa")


class PlaceholderExtractor:
    name = "placeholder"
    version = "1"

    def __init__(self, **_: object) -> None:
        pass

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult:
        units: list[MemoryUnit] = []
        questions: list[RecallQuestion] = []
        for p in document.paragraphs:
            if p.kind in NON_EVIDENCE_KINDS or not p.text.strip() or not document.proposable(p.paragraph_id):
                continue
            m = _SENTENCE.match(p.text.strip())
            quote = (m.group(0) if m else p.text).strip()
            if not quote:
                continue
            units.append(MemoryUnit(quote, "claim", (EvidenceSpan(p.paragraph_id, quote),), (), 0.3))
            questions.append(_cloze(quote, len(units) - 1))
            if len(units) >= 12:
                break
        summary = " ".join(u.content for u in units[:3])
        output = ArticleMemoryOutput(summary, (), tuple(units), tuple(questions))
        return ExtractionResult(output, self.name, self.version)
