"""Articles, paragraphs, artifacts and units: reads and the one-transaction import write."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import peewee

from core.domain import (
    READER,
    ArticleInfo,
    Locator,
    SourceDocument,
    SourceParagraph,
    StoredUnit,
)
from core.domain.export import ORIGINS
from core.storage import converters
from core.storage.browse.models import ArticleTrash
from core.storage.db import db, reading, write_transaction
from core.storage.errors import translated
from core.storage.models import Article, Artifact, Evidence, Paragraph, Question, Unit
from core.storage.review import cards
from core.storage.search import index as search_index
from core.storage.search.query import unit_filter_sql
from core.storage.writes import CHUNK, NewUnits, insert_output, insert_paragraphs


@translated
def existing_article_id(document_id: str) -> int | None:
    """The id of the article already stored with this document id (same path, same text)."""
    with reading():
        row = Article.select(Article.id).where(Article.document_id == document_id).first()
    return int(row.id) if row is not None else None


@dataclass(frozen=True, slots=True)
class Stored:
    article_id: int
    version: int  # 1 for a new path, 2, 3, ... when the text at that path changed
    already: bool  # the same document was already stored: nothing was written
    auto_accepted: tuple[int, ...] = ()  # ids of units stored as confirmed


@translated
def store_processed(
    document: SourceDocument, units: NewUnits, *, now: int, reader_version: int = 1
) -> Stored:
    """Store one article with its paragraphs, artifact and units in ONE transaction: the units
    `units.keep` says (grounded ones), confirmed with cards or parked as it says (NewUnits). If
    the document is already stored, nothing is written."""
    with write_transaction():
        existing = existing_article_id(document.document_id)
        if existing is not None:
            return Stored(existing, 0, True)
        article_id, version = _insert_article(document, now, reader_version)
        accepted = insert_output(article_id, units, now=now)
        for unit_id in accepted:
            cards.ensure_cards(unit_id, now)
        search_index.index_article(article_id)
    return Stored(article_id, version, False, tuple(accepted))


def _insert_article(document: SourceDocument, now: int, reader_version: int) -> tuple[int, int]:
    """The article row (version 2, 3, ... when the text at its path changed) and its paragraphs."""
    previous = (
        Article.select(peewee.fn.MAX(Article.version))
        .where(Article.source_path == document.source_path)
        .scalar()
    )
    version = int(previous or 0) + 1
    art = Article.create(
        source_path=document.source_path,
        document_id=document.document_id,
        content_hash=document.content_hash,
        title=document.title,
        encoding=document.encoding,
        language=document.language,
        version=version,
        metadata_json=json.dumps(document.metadata, ensure_ascii=False, default=str),
        paragraph_count=len(document.paragraphs),
        added_at=now,
        reader_version=reader_version,
    )
    insert_paragraphs(art.id, document.paragraphs)
    return int(art.id), version


def _counts(article_ids: Iterable[int] | None = None) -> dict[int, dict[str, int]]:
    q = Unit.select(Unit.article, Unit.status, peewee.fn.COUNT(Unit.id).alias("n")).group_by(
        Unit.article, Unit.status
    )
    if article_ids is not None:
        q = q.where(Unit.article.in_(list(article_ids)))
    out: dict[int, dict[str, int]] = defaultdict(dict)
    rows = cast(Iterable[tuple[int, str, int]], q.tuples())
    for article_id, status, n in rows:
        out[article_id][status] = n
    return out


def _shown() -> peewee.Expression:
    """Articles in the library: not deleted (a deleted one waits in the trash, core.storage.browse)."""
    return Article.id.not_in(ArticleTrash.select(ArticleTrash.article))


@translated
def list_articles(limit: int | None = None, offset: int = 0) -> list[ArticleInfo]:
    q = Article.select().where(_shown()).order_by(Article.added_at.desc(), Article.id.desc()).offset(offset)
    if limit is not None:
        q = q.limit(limit)
    return _with_counts(list(q))


def _with_counts(rows: list[Article]) -> list[ArticleInfo]:
    """Articles with their proposed and confirmed unit counts (one grouped query)."""
    counts = _counts([r.id for r in rows]) if rows else {}
    return [
        converters.article(
            r, counts.get(r.id, {}).get("proposed", 0), counts.get(r.id, {}).get("confirmed", 0)
        )
        for r in rows
    ]


@translated
def count_articles() -> int:
    return int(Article.select().where(_shown()).count())


@translated
def get_article(article_id: int, *, deleted_too: bool = True) -> ArticleInfo | None:
    """The article; with `deleted_too` False, None for one in the trash (deleted) as well."""
    where = Article.id == article_id
    row = Article.get_or_none(where if deleted_too else where & _shown())
    if row is None:
        return None
    return _with_counts([row])[0]


@translated
def find_articles(ref: str) -> list[ArticleInfo]:
    """Articles matching an id, a document id, or a case-insensitive title/path fragment."""
    rows: list[Article] = []
    if ref.isdigit():
        rows = list(Article.select().where(Article.id == int(ref)))
    if not rows:
        rows = list(Article.select().where(Article.document_id == ref))
    if not rows:
        like = f"%{ref}%"
        rows = list(
            Article.select()
            .where(Article.title**like | Article.source_path**like)
            .order_by(Article.id)
            .limit(50)
        )
    return _with_counts(rows)


@translated
def paragraphs(article_id: int, start: int = 0, limit: int | None = None) -> list[SourceParagraph]:
    q = Paragraph.select().where(Paragraph.article == article_id).order_by(Paragraph.position)
    if start:
        q = q.where(Paragraph.position >= start)
    if limit is not None:
        q = q.limit(limit)
    return [converters.paragraph(r) for r in q]


@translated
def paragraph_by_id(article_id: int, paragraph_id: str) -> SourceParagraph | None:
    row = Paragraph.get_or_none((Paragraph.article == article_id) & (Paragraph.paragraph_id == paragraph_id))
    return converters.paragraph(row) if row else None


@translated
def paragraphs_by_id(article_id: int, paragraph_ids: Iterable[str]) -> list[SourceParagraph]:
    """These paragraphs of the article (the ones a card cites), in article order; one query."""
    wanted = list(dict.fromkeys(paragraph_ids))
    if not wanted:
        return []
    q = (
        Paragraph.select()
        .where((Paragraph.article == article_id) & Paragraph.paragraph_id.in_(wanted))
        .order_by(Paragraph.position)
    )
    return [converters.paragraph(r) for r in q]


@translated
def own_units_citing(article_id: int, paragraph_ids: Iterable[str]) -> list[tuple[int, str]]:
    """(id, content) of the reader's own units of the article (confirmed or proposed, not
    trashed or rejected) that quote any of these paragraphs, oldest first: what a new card of
    theirs from them could repeat (one query). An extractor's proposal of the same sentence is
    not one: a cloze is the reader's pick of what to ask of it."""
    wanted = list(dict.fromkeys(paragraph_ids))
    if not wanted:
        return []
    rows = db.execute_sql(
        "SELECT DISTINCT u.id, u.content FROM unit u JOIN evidence e ON e.unit_id = u.id "
        "WHERE u.article_id = ? AND u.status IN ('proposed', 'confirmed') AND u.extractor = ? "
        f"AND e.paragraph_id IN ({', '.join('?' * len(wanted))}) ORDER BY u.id",
        (article_id, READER, *wanted),
    )
    return [(int(r[0]), str(r[1])) for r in rows]


@translated
def article_key(article_id: int) -> tuple[int, int, int] | None:
    """The article's (version, paragraph count, reader version): what changes when its text is
    read again; None when it no longer exists. One row by its key, no counts: a plain
    statement (read twice by every save of a card of yours, where peewee's builder was ~0.4 ms)."""
    row = db.execute_sql(
        "SELECT version, paragraph_count, reader_version FROM article WHERE id = ?", (article_id,)
    ).fetchone()
    return (int(row[0]), int(row[1]), int(row[2])) if row is not None else None


@translated
def units_from_rows(rows: list[Unit]) -> list[StoredUnit]:
    if not rows:
        return []
    ids = [r.id for r in rows]
    ev: dict[int, list[Evidence]] = defaultdict(list)
    qs: dict[int, list[Question]] = defaultdict(list)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        for e in Evidence.select().where(Evidence.unit.in_(chunk)):
            ev[e.unit_id].append(e)
        for q in Question.select().where(Question.unit.in_(chunk)):
            qs[q.unit_id].append(q)
    places = _evidence_locators({(r.article_id, e.paragraph_id) for r in rows for e in ev[r.id]})
    return [converters.unit(r, ev[r.id], qs[r.id], places.get(r.article_id)) for r in rows]


def _evidence_locators(cited: set[tuple[int, str]]) -> dict[int, dict[str, Locator]]:
    """article id -> paragraph id -> locator, for the paragraphs units cite (those that have one)."""
    out: dict[int, dict[str, Locator]] = defaultdict(dict)
    by_article: dict[int, list[str]] = defaultdict(list)
    for article_id, paragraph_id in cited:
        by_article[article_id].append(paragraph_id)
    for article_id, ids in by_article.items():
        for start in range(0, len(ids), CHUNK):
            rows = cast(
                Iterable[tuple[str, str | None]],
                Paragraph.select(Paragraph.paragraph_id, Paragraph.locator_json)
                .where(
                    (Paragraph.article == article_id) & Paragraph.paragraph_id.in_(ids[start : start + CHUNK])
                )
                .where(Paragraph.locator_json.is_null(False))
                .tuples(),
            )
            for paragraph_id, located in rows:
                out[article_id][paragraph_id] = converters.locator(located)
    return out


@translated
def units(
    article_id: int | None = None,
    statuses: Sequence[str] | None = None,
    memory_type: str | None = None,
    low_confidence: bool | None = None,
    limit: int | None = None,
    offset: int = 0,
    *,
    anchor: str | None = None,
    least_confident_first: bool = False,
) -> list[StoredUnit]:
    """Units in reading order (article, position), or lowest confidence first."""
    order = (Unit.confidence, Unit.id) if least_confident_first else (Unit.article, Unit.position, Unit.id)
    q = Unit.select().order_by(*order)
    if article_id is not None:
        q = q.where(Unit.article == article_id)
    if anchor is not None:
        q = q.where(Unit.anchor == anchor)
    if statuses:
        q = q.where(Unit.status.in_(list(statuses)))
    if memory_type:
        q = q.where(Unit.memory_type == memory_type)
    if low_confidence is not None:
        q = q.where(Unit.low_confidence == low_confidence)
    if offset:
        q = q.offset(offset)
    if limit is not None:
        q = q.limit(limit)
    return units_from_rows(list(q))


@translated
def unit(unit_id: int) -> StoredUnit | None:
    row = Unit.get_or_none(Unit.id == unit_id)
    return units_from_rows([row])[0] if row else None


@translated
def count_units(status: str | None = None, *, anchor: str | None = None) -> int:
    q = Unit.select()
    if status:
        q = q.where(Unit.status == status)
    if anchor is not None:
        q = q.where(Unit.anchor == anchor)
    return int(q.count())


@translated
def count_articles_with(status: str) -> int:
    """Articles in the library (not deleted) with at least one unit of this status."""
    row = db.execute_sql(
        "SELECT COUNT(DISTINCT article_id) FROM unit WHERE status = ? "
        "AND article_id NOT IN (SELECT article_id FROM article_trash)",
        (status,),
    ).fetchone()
    return int(row[0]) if row else 0


@translated
def count_by_origin(status: str) -> dict[str, int]:
    """Units of one status by origin: {"yours": n, "extracted": m} (search's unit filter rule)."""
    out: dict[str, int] = {}
    for origin in ORIGINS:
        cond, params = unit_filter_sql([status], [], [], [], origin)
        row = db.execute_sql(f"SELECT COUNT(*) FROM unit u WHERE {cond}", params).fetchone()
        out[origin] = int(row[0]) if row else 0
    return out


@translated
def set_reading_position(article_id: int, position: int) -> None:
    with write_transaction():
        Article.update(reading_position=position).where(Article.id == article_id).execute()


@translated
def reading_position(article_id: int) -> int:
    row = Article.get_or_none(Article.id == article_id)
    return row.reading_position if row else 0


@translated
def artifact_notices(article_id: int) -> tuple[str, ...]:
    """The notices of the article's latest artifact (what reading and extracting it said)."""
    row = (
        Artifact.select(Artifact.notices_json)
        .where(Artifact.article == article_id)
        .order_by(Artifact.id.desc())
        .first()
    )
    found = converters.loads(row.notices_json, []) if row is not None else []
    return tuple(n for n in found if isinstance(n, str)) if isinstance(found, list) else ()


@translated
def artifact_json(article_id: int) -> dict[str, object] | None:
    row = Artifact.select().where(Artifact.article == article_id).order_by(Artifact.id.desc()).first()
    if row is None:
        return None
    return {
        "extractor": row.extractor,
        "model": row.model,
        "summary": row.summary,
        "output": converters.loads(row.output_json, {}),
        "notices": converters.loads(row.notices_json, []),
        "dropped": converters.loads(row.dropped_json, []),
    }
