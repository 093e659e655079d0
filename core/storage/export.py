"""Reads for the exports: units with their quotes, questions and cards, in batches; review logs.

Plain SQL over the library and review tables (read-only; the review tables' own repository is
not involved). Units come in id order, `BATCH` at a time, so an export of a
million cards never holds them all. The one write here creates the library's identity (a UUID
in the setting table) the first time an export needs it: Anki GUIDs and Markdown markers are
derived from it, so exports of two libraries never collide and exports of one always match.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from core.domain import Locator
from core.domain.export import (
    ExportArticle,
    ExportFilter,
    ExportQuestion,
    ExportQuote,
    ExportReview,
    ExportUnit,
)
from core.storage.converters import card, card_columns, locator
from core.storage.db import db, reading, write_transaction
from core.storage.decks import DECK_OF
from core.storage.errors import translated
from core.storage.search.query import unit_filter_sql

BATCH = 2000  # units per read
_CHUNK = 900  # ids per IN (...) list
LIBRARY_ID_KEY = "library_id"
ANKI_NOTE_TYPES_KEY = "anki_note_types"  # the note type ids of the last Anki export


def _rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with reading():
        return list(db.execute_sql(sql, params))


def _rows_in(sql: str, ids: Sequence[int]) -> Iterator[tuple[Any, ...]]:
    """Rows of `sql` (its `{ids}` is an IN list) for every id, _CHUNK ids a query."""
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        yield from _rows(sql.format(ids=",".join("?" * len(chunk))), chunk)


@translated
def library_id() -> str:
    """This library's identity: a UUID made once and kept in the setting table."""
    found = _rows("SELECT value_json FROM setting WHERE key = ?", (LIBRARY_ID_KEY,))
    if found:
        return str(json.loads(found[0][0]))
    with write_transaction():
        again = db.execute_sql("SELECT value_json FROM setting WHERE key = ?", (LIBRARY_ID_KEY,)).fetchone()
        if again:
            return str(json.loads(again[0]))
        made = str(uuid.uuid4())
        db.execute_sql(
            "INSERT INTO setting (key, value_json) VALUES (?, ?)", (LIBRARY_ID_KEY, json.dumps(made))
        )
    return made


@translated
def anki_note_types() -> tuple[int, ...]:
    """The note type ids this library's Anki exports last shipped (() before the first export
    that recorded them)."""
    found = _rows("SELECT value_json FROM setting WHERE key = ?", (ANKI_NOTE_TYPES_KEY,))
    value = json.loads(found[0][0]) if found else []
    return tuple(int(v) for v in value) if isinstance(value, list) else ()


@translated
def remember_anki_note_types(ids: Sequence[int]) -> None:
    with write_transaction():
        db.execute_sql(
            "INSERT OR REPLACE INTO setting (key, value_json) VALUES (?, ?)",
            (ANKI_NOTE_TYPES_KEY, json.dumps(list(ids))),
        )


def _where(f: ExportFilter) -> tuple[str, list[Any]]:
    return unit_filter_sql(f.statuses, f.memory_types, f.tags, f.article_ids, f.origin)


@translated
def count_units(f: ExportFilter) -> tuple[int, int]:
    """(units, questions) the filter takes: for progress."""
    where, params = _where(f)
    row = _rows(
        f"SELECT COUNT(DISTINCT u.id), COUNT(q.id) FROM unit u LEFT JOIN question q ON q.unit_id = u.id "
        f"WHERE {where}",
        params,
    )[0]
    return int(row[0]), int(row[1])


@translated
def iter_units(f: ExportFilter, batch: int = BATCH) -> Iterator[list[ExportUnit]]:
    """The filtered units by id (the primary key: each batch is one index range), `batch` at a
    time, each with quotes, questions and cards."""
    where, params = _where(f)
    after = 0
    while True:
        rows = _rows(
            "SELECT u.id, u.article_id, u.position, u.content, u.memory_type, u.status, u.tags_json, "
            f"u.extractor, u.created_at, u.updated_at, u.pinned, u.deck_id FROM unit u WHERE {where} AND u.id > ? "
            "ORDER BY u.id LIMIT ?",
            [*params, after, batch],
        )
        if not rows:
            return
        after = int(rows[-1][0])
        yield _units(rows)


@translated
def iter_with_decks(
    f: ExportFilter, batch: int = BATCH
) -> Iterator[list[tuple[ExportArticle, ExportArticle, ExportUnit]]]:
    """`iter_units`, each unit beside its article and its deck's article (the same one unless
    Browse moved it to another article's deck); each article read once."""
    known: dict[int, ExportArticle] = {}
    for units in iter_units(f, batch):
        wanted = {u.article_id for u in units} | {u.deck_id for u in units if u.deck_id is not None}
        missing = wanted - known.keys()
        if missing:
            known.update(articles(sorted(missing)))
        yield [(known[u.article_id], known[u.deck], u) for u in units]


def _units(rows: list[tuple[Any, ...]]) -> list[ExportUnit]:
    ids = [int(r[0]) for r in rows]
    quotes = _quotes(ids)
    questions = _questions(ids)
    return [
        ExportUnit(
            id=int(r[0]),
            article_id=int(r[1]),
            position=int(r[2]),
            content=r[3],
            memory_type=r[4],
            status=r[5],
            tags=_tags(r[6]),
            extractor=r[7] or "",
            created_at=int(r[8]),
            updated_at=int(r[9]),
            pinned=bool(r[10]),
            deck_id=None if r[11] is None else int(r[11]),
            quotes=tuple(quotes[int(r[0])]),
            questions=tuple(questions[int(r[0])]),
        )
        for r in rows
    ]


@lru_cache(maxsize=4096)
def _tags(text: str | None) -> tuple[str, ...]:
    """A unit's stored tags, decoded once per distinct text (units share a few tag sets:
    decoding each unit's was a twentieth of an export's time)."""
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return ()
    return tuple(str(t) for t in value) if isinstance(value, list) else ()


@lru_cache(maxsize=4096)
def _locator(stored: str | None) -> Locator:
    """A paragraph's stored locator, decoded once per distinct text (a section's paragraphs
    share one)."""
    return locator(stored)


def _quotes(unit_ids: Sequence[int]) -> dict[int, list[ExportQuote]]:
    out: dict[int, list[ExportQuote]] = defaultdict(list)
    for unit_id, pid, quote, text, where in _rows_in(
        "SELECT e.unit_id, e.paragraph_id, e.quote, p.text, p.locator_json FROM evidence e "
        "JOIN unit u ON u.id = e.unit_id "
        "LEFT JOIN paragraph p ON p.article_id = u.article_id AND p.paragraph_id = e.paragraph_id "
        "WHERE e.unit_id IN ({ids}) ORDER BY e.unit_id, e.position",
        unit_ids,
    ):
        out[int(unit_id)].append(ExportQuote(pid, quote, text or "", _locator(where)))
    return out


def _questions(unit_ids: Sequence[int]) -> dict[int, list[ExportQuestion]]:
    out: dict[int, list[ExportQuestion]] = defaultdict(list)
    for t in _rows_in(
        f"SELECT q.unit_id, q.id, q.position, q.kind, q.question, q.answer, {card_columns()} "
        "FROM question q LEFT JOIN card c ON c.question_id = q.id "
        "WHERE q.unit_id IN ({ids}) ORDER BY q.unit_id, q.position, q.id",
        unit_ids,
    ):
        unit_id, question_id, position, kind, question, answer = t[:6]
        found = card(t[6:]) if t[6] is not None else None  # a unit never confirmed has no cards
        out[int(unit_id)].append(
            ExportQuestion(
                id=int(question_id),
                position=int(position),
                kind=kind,
                question=question,
                answer=answer,
                card=found,
            )
        )
    return out


@translated
def articles(article_ids: Sequence[int]) -> dict[int, ExportArticle]:
    """Articles by id, each with the summary of its latest artifact."""
    out: dict[int, ExportArticle] = {}
    for t in _rows_in(
        "SELECT a.id, a.title, a.source_path, a.document_id, a.language, a.version, a.added_at, "
        "(SELECT r.summary FROM artifact r WHERE r.article_id = a.id ORDER BY r.id DESC LIMIT 1) "
        "FROM article a WHERE a.id IN ({ids})",
        sorted(set(article_ids)),
    ):
        out[int(t[0])] = ExportArticle(int(t[0]), t[1], t[2], t[3], t[4], int(t[5]), int(t[6]), t[7] or "")
    return out


@translated
def deck_ids(f: ExportFilter) -> list[int]:
    """The decks (their articles' ids) with at least one unit the filter takes, by id: a unit
    Browse moved to another article's deck is in that one (core.storage.decks)."""
    where, params = _where(f)
    sql = f"SELECT DISTINCT {DECK_OF} FROM unit u WHERE {where} ORDER BY 1"
    return [int(r[0]) for r in _rows(sql, params)]


@translated
def reviews(card_ids: Sequence[int]) -> dict[int, list[ExportReview]]:
    """Every review of these cards, oldest first."""
    out: dict[int, list[ExportReview]] = defaultdict(list)
    for t in _rows_in(
        "SELECT card_id, rating, reviewed_at, state_before, elapsed_days, scheduled_days, stability, "
        "difficulty, duration_ms FROM review_log WHERE card_id IN ({ids}) ORDER BY card_id, reviewed_at, id",
        sorted(set(card_ids)),
    ):
        out[int(t[0])].append(ExportReview(*t))
    return out
