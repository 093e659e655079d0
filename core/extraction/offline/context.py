"""What the card writer knows of a whole article when it writes one card: how often the article
uses each word (a blank candidate's features) and the article's frequent terms (never a blank).

The extractor computes it once per extraction; curation and a reader's own cards ask for it
with `article_context` (the same code, so a recomputed blank is the extractor's blank).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from core.domain import SourceDocument
from core.extraction.offline import prepare
from core.extraction.offline.candidates import DocCounts
from core.extraction.offline.segment import Sentence, is_traditional
from core.validation.cards import topic_terms


@dataclass(frozen=True, slots=True)
class ArticleContext:
    lang: str  # "en" | "zh"
    counts: DocCounts
    frequent: frozenset[str]

    def traditional(self, text: str) -> bool:
        return self.lang == "zh" and is_traditional(text)


def context_of(document: SourceDocument, found: list[Sentence]) -> ArticleContext:
    """The context from the article's prepared sentences (the extractor has them already)."""
    counts = DocCounts(dict(Counter(w for s in found for w in s.words)), len(found))
    # every paragraph, headings too, as the validator counts them (core.validation.cards): one
    # rule for what the article is about, so a blank never lands on a topic the validator names
    frequent = topic_terms(p.text for p in document.paragraphs)
    return ArticleContext("zh" if document.language == "zh" else "en", counts, frozenset(frequent))


def article_context(document: SourceDocument) -> ArticleContext:
    return context_of(document, prepare.sentences(document))
