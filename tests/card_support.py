"""One paragraph and one card on it: the smallest output the validator judges.

tests/test_card_rules.py and tests/test_consistency.py build their cases this way.
"""

from __future__ import annotations

from collections.abc import Sequence

from core import domain
from core.domain import ArticleMemoryOutput, SourceDocument


def one_paragraph(text: str) -> SourceDocument:
    """A document of one paragraph, `p_001`."""
    return SourceDocument(
        "doc_test", "/tmp/t.md", "t", (domain.SourceParagraph("p_001", text, "paragraph", 0),)
    )


def one_card(
    content: str,
    quote: str,
    question: str,
    answer: str,
    kind: str = "qa",
    *,
    paragraph_id: str = "p_001",
    mtype: str = "claim",
    tags: Sequence[str] = (),
    confidence: float = 0.8,
) -> ArticleMemoryOutput:
    """One unit quoting `quote` from `paragraph_id`, with one question on it."""
    evidence = (domain.EvidenceSpan(paragraph_id, quote),)
    unit = domain.MemoryUnit(content, mtype, evidence, tuple(tags), confidence)
    return ArticleMemoryOutput("", (), (unit,), (domain.RecallQuestion(question, answer, 0, kind),))
