"""Export contracts: which units to export (the filter) and what an export reads (records).

The records are what every format (Anki, Markdown, CSV) is written from: a unit with its
quotes (each in its paragraph), its questions and each question's card (the domain's Card, as
review keeps it). They are read in
batches by core.storage.export and never hold a database row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from core.domain import NO_LOCATOR, READER, Locator
from core.domain.card import Card

Origin = Literal["yours", "extracted"]
ORIGINS: tuple[str, ...] = ("yours", "extracted")


@dataclass(frozen=True, slots=True)
class ExportFilter:
    """Which units an export takes: the unit filters of search and Browse. Empty means any.

    `statuses` defaults to confirmed units (the cards you review); `origin` is "yours" (units
    you made, extractor == READER) or "extracted" (proposed by an extractor or an agent).
    """

    article_ids: tuple[int, ...] = ()
    statuses: tuple[str, ...] = ("confirmed",)
    memory_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    origin: str | None = None


@dataclass(frozen=True, slots=True)
class ExportArticle:
    id: int
    title: str
    source_path: str
    document_id: str
    language: str
    version: int
    added_at: int  # UTC epoch seconds
    summary: str = ""


@dataclass(frozen=True, slots=True)
class ExportQuote:
    paragraph_id: str
    quote: str
    paragraph_text: str  # "" when the paragraph is gone
    locator: Locator = NO_LOCATOR  # where the paragraph sits (chapter, page, headings); empty for plain text


@dataclass(frozen=True, slots=True)
class ExportQuestion:
    id: int
    position: int
    kind: str  # qa / cloze
    question: str
    answer: str
    card: Card | None = None  # as the scheduler keeps it


@dataclass(frozen=True, slots=True)
class ExportUnit:
    id: int
    article_id: int
    position: int
    content: str
    memory_type: str
    status: str
    tags: tuple[str, ...]
    extractor: str
    created_at: int
    updated_at: int
    pinned: bool = False
    quotes: tuple[ExportQuote, ...] = ()
    questions: tuple[ExportQuestion, ...] = ()
    deck_id: int | None = None  # the article whose deck it is in, when moved there (Browse)

    @property
    def yours(self) -> bool:
        return self.extractor == READER

    @property
    def locator(self) -> Locator | None:
        """Where the unit comes from: its first quote's paragraph (its context line, with its
        source article's title: core.domain.context)."""
        return self.quotes[0].locator if self.quotes else None

    @property
    def deck(self) -> int:
        """The article whose deck the unit is in: the override, else its source (the SQL form:
        core.storage.decks.DECK_OF). Its quotes stay `article_id`'s."""
        return self.deck_id if self.deck_id is not None else self.article_id


@dataclass(frozen=True, slots=True)
class ExportReview:
    """One review-log row of a card."""

    card_id: int
    rating: int  # 1 again .. 4 easy
    reviewed_at: int
    state_before: int
    elapsed_days: int
    scheduled_days: int
    stability: float | None
    difficulty: float | None
    duration_ms: int | None


@dataclass(frozen=True, slots=True)
class ExportResult:
    """What an export wrote: the file (or folder), counts, and anything the reader should know."""

    path: str
    articles: int = 0
    units: int = 0
    cards: int = 0
    reviews: int = 0
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class FileCheck:
    """A library file that passed the checks: its schema version, size and content."""

    path: Path
    schema_version: int
    size: int
    articles: int
    cards: int

    def __str__(self) -> str:
        return f"{self.articles} articles, {self.cards} cards, schema {self.schema_version}, {self.size / 1e6:.1f} MB"
