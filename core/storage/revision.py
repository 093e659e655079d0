"""A changed source updates its article in place, in ONE transaction (kill -9 leaves the old).

Storage stores; the re-anchoring is decided above (core.services.reanchor: where every unit's
quotes are in the new text, which units are "source changed", where the reading position
goes) and handed here as a `Reanchoring`. This writes it: the paragraphs are replaced by the
new ones, every quote moved where it was found (its old words written to evidence_history
first when the decision says so), each unit's anchor set as decided, the units' rewritten
words (`unit_texts`) and the new proposals (`new_units`) stored, the article updated.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import peewee

from core.domain import SourceDocument
from core.storage import converters
from core.storage.db import reading, write_transaction
from core.storage.errors import translated
from core.storage.models import Article, Evidence, EvidenceHistory, Paragraph, Question, Unit
from core.storage.review import cards
from core.storage.search import index as search_index
from core.storage.titles import take_source_title
from core.storage.writes import CHUNK, NewUnits, insert_output, insert_paragraphs
from core.validation.anchor import Found


@dataclass(frozen=True, slots=True)
class QuoteMove:
    """Where one quote of a unit is in the new text, and whether its old words are kept in
    evidence_history (they changed, or the quote was lost)."""

    found: Found
    to_history: bool


@dataclass(frozen=True, slots=True)
class UnitMove:
    """One unit's quotes, in the order of its evidence, and its new anchor state (None: as it is)."""

    unit_id: int
    quotes: tuple[QuoteMove, ...]
    anchor: str | None


@dataclass(frozen=True, slots=True)
class Reanchoring:
    """The re-anchoring of one article, as decided by core.services.reanchor."""

    units: tuple[UnitMove, ...]  # every unit that cites the article, by id
    reading_position: int  # the reader's place in the new text
    paragraphs_changed: int
    kept: int = 0  # units whose every quote was found (exactly or fuzzily)
    fuzzy: int = 0  # of those, units with a quote moved to new words
    changed: tuple[int, ...] = ()  # ids of units marked "source changed"
    outcomes: dict[str, int] = field(default_factory=dict)  # same / moved / fuzzy / lost counts


@dataclass(frozen=True, slots=True)
class Revised:
    article_id: int
    version: int
    kept: int = 0  # units whose every quote was found (exactly or fuzzily)
    fuzzy: int = 0  # of those, units with a quote moved to new words
    changed: tuple[int, ...] = ()  # ids of units marked "source changed"
    added: int = 0  # new proposals
    auto_accepted: tuple[int, ...] = ()
    paragraphs_changed: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)  # same / moved / fuzzy / lost counts


@dataclass(frozen=True, slots=True)
class UnitText:
    """A unit's words shown a new reader's way (the refresh of an old library): its content and
    its questions as (question id, question, answer)."""

    content: str
    questions: tuple[tuple[int, str, str], ...] = ()


@translated
def revise_article(
    article_id: int,
    document: SourceDocument,
    moves: Reanchoring,
    *,
    now: int,
    reader_version: int,
    new_units: NewUnits | None = None,
    unit_texts: Mapping[int, UnitText] | None = None,
) -> Revised:
    """Replace the article's text by `document`'s and write `moves` (see the module)."""
    with write_transaction():
        art = Article.get_by_id(article_id)
        rows = _evidence_rows(article_id)
        search_index.remove_article(article_id)
        Paragraph.delete().where(Paragraph.article == article_id).execute()
        insert_paragraphs(article_id, document.paragraphs)
        for move in moves.units:
            _move_evidence(move, rows[move.unit_id], art.version, now)
        _rewrite_units(unit_texts or {}, now)
        added, accepted = _add_units(article_id, new_units, now)
        _update_article(art, document, moves.reading_position, now, reader_version)
        search_index.index_article(article_id)
    return Revised(
        article_id,
        art.version,
        moves.kept,
        moves.fuzzy,
        moves.changed,
        added,
        tuple(accepted),
        moves.paragraphs_changed,
        dict(moves.outcomes),
    )


def _evidence_rows(article_id: int) -> dict[int, list[Evidence]]:
    """Unit id -> its evidence rows in position order, for the units of the article."""
    rows = (
        Evidence.select(Evidence)
        .join(Unit)
        .where(Unit.article == article_id)
        .order_by(Evidence.unit, Evidence.position)
    )
    out: dict[int, list[Evidence]] = defaultdict(list)
    for e in rows:
        out[e.unit_id].append(e)
    return out


def _move_evidence(move: UnitMove, rows: list[Evidence], version: int, now: int) -> None:
    """Write one unit's quotes where they were found (old words to history first) and its anchor."""
    for e, q in zip(rows, move.quotes, strict=True):
        f = q.found
        if q.to_history:
            EvidenceHistory.create(
                unit=move.unit_id,
                position=e.position,
                article_version=version,
                paragraph_id=e.paragraph_id,
                quote=e.quote,
                outcome=f.outcome,
                similarity=f.similarity,
                at=now,
            )
        if f.paragraph_id is not None and (f.paragraph_id, f.quote) != (e.paragraph_id, e.quote):
            Evidence.update(paragraph_id=f.paragraph_id, quote=f.quote).where(Evidence.id == e.id).execute()
    unit_row = Unit.get_by_id(move.unit_id)
    if move.anchor is not None:
        unit_row.anchor = move.anchor
    unit_row.updated_at = now
    unit_row.save()


def _rewrite_units(texts: Mapping[int, UnitText], now: int) -> None:
    for unit_id, text in texts.items():
        Unit.update(content=text.content, updated_at=now).where(Unit.id == unit_id).execute()
        for question_id, question, answer in text.questions:
            Question.update(question=question, answer=answer).where(
                (Question.id == question_id) & (Question.unit == unit_id)
            ).execute()


def _add_units(article_id: int, new_units: NewUnits | None, now: int) -> tuple[int, list[int]]:
    if new_units is None or not new_units.keep:
        return 0, []
    accepted = insert_output(article_id, new_units, now=now)
    for unit_id in accepted:
        cards.ensure_cards(unit_id, now)
    return len(new_units.keep), accepted


def _update_article(
    art: Article, document: SourceDocument, reading_position: int, now: int, reader_version: int
) -> None:
    import json

    content_changed = art.content_hash != document.content_hash
    art.document_id = document.document_id
    art.content_hash = document.content_hash
    take_source_title(art, document.title)  # a title the reader gave stays
    art.encoding = document.encoding
    art.language = document.language
    art.metadata_json = json.dumps(document.metadata, ensure_ascii=False, default=str)
    art.paragraph_count = len(document.paragraphs)
    art.reader_version = reader_version
    art.source_missing_at = None
    if content_changed:
        art.version += 1
    art.reading_position = reading_position
    art.save()


@translated
def article_at_path(source_path: str) -> tuple[int, int] | None:
    """(id, reader version) of the latest article read from this path, if any."""
    with reading():
        row = (
            Article.select(Article.id, Article.reader_version)
            .where(Article.source_path == source_path)
            .order_by(Article.version.desc(), Article.id.desc())
            .first()
        )
    return (int(row.id), int(row.reader_version)) if row is not None else None


@translated
def stale_articles(reader_version: int) -> list[tuple[int, str, int]]:
    """(id, source path, reader version) of articles read by a reader older than `reader_version`."""
    with reading():
        rows = Article.select(Article.id, Article.source_path, Article.reader_version).where(
            Article.reader_version < reader_version
        )
        return [(int(r.id), str(r.source_path), int(r.reader_version)) for r in rows]


@translated
def set_reader_version(article_ids: Sequence[int], reader_version: int) -> None:
    """Articles whose reader did not change: marked read by today's readers (one write)."""
    with write_transaction():
        for start in range(0, len(article_ids), CHUNK):
            Article.update(reader_version=reader_version).where(
                Article.id.in_(list(article_ids[start : start + CHUNK]))
            ).execute()


@translated
def stored_document(article_id: int) -> SourceDocument | None:
    """An article as the library holds it: its paragraphs (as stored), title and identity."""
    with reading():
        art = Article.get_or_none(Article.id == article_id)
        if art is None:
            return None
        rows = Paragraph.select().where(Paragraph.article == article_id).order_by(Paragraph.position)
        paragraphs = tuple(converters.paragraph(r) for r in rows)
    return SourceDocument(
        document_id=art.document_id,
        source_path=art.source_path,
        title=art.title,
        paragraphs=paragraphs,
        encoding=art.encoding,
        metadata=converters.loads(art.metadata_json, {}),
        content_hash=art.content_hash,
        language=art.language,
    )


@translated
def content_hash_of(article_id: int) -> str | None:
    row = Article.get_or_none(Article.id == article_id)
    return str(row.content_hash) if row is not None else None


@translated
def articles_under(folder: str) -> list[tuple[int, str, bool]]:
    """(id, source path, marked missing) of the articles read from files inside `folder`."""
    prefix = folder.rstrip("/\\") + os.sep
    with reading():
        rows = Article.select(Article.id, Article.source_path, Article.source_missing_at).where(
            peewee.fn.substr(Article.source_path, 1, len(prefix)) == prefix
        )
        return [(int(r.id), str(r.source_path), r.source_missing_at is not None) for r in rows]


@translated
def set_source_missing(article_ids: Sequence[int], at: int | None) -> None:
    """Mark articles whose followed file is gone (`at` = when sync saw it), or clear the mark."""
    with write_transaction():
        for start in range(0, len(article_ids), CHUNK):
            Article.update(source_missing_at=at).where(
                Article.id.in_(list(article_ids[start : start + CHUNK]))
            ).execute()
