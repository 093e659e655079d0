"""The offline extractor on a small document made in the test: tests/test_offline_cards.py and
tests/test_card_facts.py judge the cards it writes."""

from __future__ import annotations

from core.domain import ArticleMemoryOutput, SourceDocument, SourceParagraph
from core.extraction.offline import OfflineExtractor
from core.validation import validate


def doc(*paragraphs: str | tuple[str, str], language: str = "en") -> SourceDocument:
    """A document of these paragraphs, `p_001` on; a (kind, text) pair is a block of that kind."""
    paras = []
    for i, p in enumerate(paragraphs):
        kind, text = p if isinstance(p, tuple) else ("paragraph", p)
        paras.append(SourceParagraph(f"p_{i + 1:03d}", text, kind, i))
    return SourceDocument("doc_t", "/tmp/t.md", "t", tuple(paras), language=language)


def run(d: SourceDocument) -> ArticleMemoryOutput:
    """The offline extractor's output for `d`, which the validator must pass whole."""
    out = OfflineExtractor().extract(d).output
    assert validate(out, d).ok
    return out
