"""What the library-import tests share: a short article, a scripted extractor (an input
source for the library, not a stand-in for our own code) and grounded units to give it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.domain import (
    ArticleMemoryOutput,
    EvidenceSpan,
    ExtractionResult,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
)

TEXT = """Spaced repetition schedules each review just before you would forget it.

The forgetting curve was described by Hermann Ebbinghaus in 1885.

Retrieval practice strengthens memory more than rereading does.
"""


class Scripted:
    """A test extractor: builds its output from the parsed document with a given function.
    (An input source for the library, not a stand-in for our own code.)"""

    name = "scripted"
    version = "t1"

    def __init__(self, build: Callable[[SourceDocument], ArticleMemoryOutput]) -> None:
        self.build = build
        self.calls = 0

    def extract(self, document: SourceDocument, stop: object = None) -> ExtractionResult:
        self.calls += 1
        return ExtractionResult(self.build(document), self.name, self.version, raw_output="{}")


def grounded(doc: SourceDocument, index: int, content: str, confidence: float = 0.6) -> MemoryUnit:
    p = doc.paragraphs[index]
    return MemoryUnit(content, "claim", (EvidenceSpan(p.paragraph_id, p.text),), ("t",), confidence)


def questions_for(n: int) -> tuple[RecallQuestion, ...]:
    return tuple(RecallQuestion(f"Question {i}?", f"Answer {i}", i, "qa") for i in range(n))


def write(path: Path, text: str = TEXT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
