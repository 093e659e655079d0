"""Read side of the search index: FTS5 candidate lists, term statistics, rows for hits, filters.

Match expressions are built only from our own tokens (search_text), every token quoted, so
user input never reaches FTS5 as query syntax. Column weights for bm25(): words, stems, trunc.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.domain import READER
from core.domain.export import ORIGINS
from core.domain.review import Queue
from core.storage.db import db
from core.storage.decks import IN_DECKS
from core.storage.errors import translated
from core.storage.search.index import PARAGRAPHS_KEY
from core.text.analysis import fts_phrase, is_cjk

_CHUNK = 500
# Hits are rows of articles in the library: a deleted one waits in the trash, found by nobody
# (the app's search, the CLI's, an agent's) until it is restored; its index entries stay for that.
NOT_DELETED = "{article} NOT IN (SELECT article_id FROM article_trash)"


def _rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    return list(db.execute_sql(sql, tuple(params)).fetchall())


# --- match expressions ----------------------------------------------------------------------


@translated
def term_expr(run: str, *, prefix: bool = False, completions: Sequence[str] = ()) -> str:
    """One normalised run as an FTS5 expression: an English word in `words` (optionally a
    prefix: any of `completions` when given, the library's words that start with it), a CJK
    character in `words`, a longer CJK run as a phrase of bigrams in `stems`."""
    if is_cjk(run):
        if len(run) == 1:
            return "words : " + fts_phrase([run])
        return "stems : " + fts_phrase([run[i : i + 2] for i in range(len(run) - 1)])
    if prefix and completions:
        return "words : (" + " OR ".join(fts_phrase([c]) for c in completions) + ")"
    return "words : " + fts_phrase([run]) + (" *" if prefix else "")


@translated
def all_of(runs: Sequence[str], *, last_prefix: bool, completions: Sequence[str] = ()) -> str:
    """Every run present (AND); the last English run may match as a prefix (any of
    `completions` when given)."""
    last = len(runs) - 1
    return " AND ".join(
        term_expr(
            r, prefix=last_prefix and i == last and len(r) >= 2, completions=completions if i == last else ()
        )
        for i, r in enumerate(runs)
    )


@translated
def phrase_of(tokens: Sequence[str], *, last_prefix: bool) -> str:
    """All tokens adjacent, in order, in the `words` column."""
    return "words : " + fts_phrase(list(tokens)) + (" *" if last_prefix else "")


@translated
def any_of(stems: Iterable[str], cjk_bigrams: Iterable[str], cjk_chars: Iterable[str]) -> str:
    """OR of stems and CJK bigrams (`stems` column) and single CJK characters (`words`)."""
    parts = [fts_phrase([t]) for t in sorted(set(stems))]
    parts += [fts_phrase([t]) for t in sorted(set(cjk_bigrams))]
    expr = ""
    if parts:
        expr = "stems : (" + " OR ".join(parts) + ")"
    chars = sorted(set(cjk_chars))
    if chars:
        chars_expr = "words : (" + " OR ".join(fts_phrase([c]) for c in chars) + ")"
        expr = f"{expr} OR {chars_expr}" if expr else chars_expr
    return expr


# --- candidate lists ------------------------------------------------------------------------


def _article_clause(article_ids: Sequence[int], alias: str) -> tuple[str, list[int]]:
    if not article_ids:
        return "", []
    return f" AND {alias}.article_id IN ({','.join('?' * len(article_ids))})", list(article_ids)


def _newest(expr: str, limit: int) -> list[int]:
    sql = "SELECT rowid FROM search_para WHERE search_para MATCH ? ORDER BY rowid DESC LIMIT ?"
    return [int(r[0]) for r in _rows(sql, [expr, limit])]


@translated
def paragraphs_counted(expr: str, cap: int | None = None) -> int:
    """How many paragraphs match `expr`, counted up to `cap` (None: all). FTS5 reads a term's
    entries one by one to count them (no stored total): this costs what it counts."""
    sql = "SELECT count(*) FROM (SELECT 1 FROM search_para WHERE search_para MATCH ? LIMIT ?)"
    return int(_rows(sql, [expr, -1 if cap is None else cap])[0][0])


_BM25 = "-bm25(search_para, 1.0, 1.0, 0.3)"


@translated
def paragraphs_matching(
    expr: str, limit: int, article_ids: Sequence[int] = (), cap: int | None = None, rank_by: str | None = None
) -> list[tuple[int, float]]:
    """(paragraph pk, bm25 score, higher is better) best first.

    bm25() reads the whole entry list of every phrase of its expression once per statement (a
    phrase's document frequency is not stored): 3 ms for a word in half of 100k paragraphs.
    `rank_by`: the expression the BM25 order reads instead ("" for none: the newest first), every
    paragraph matching `expr` matching it too; the caller leaves the common terms out of it."""
    if not expr:
        return []
    ranked = expr if rank_by is None else rank_by
    if article_ids:
        clause, ids = _article_clause(article_ids, "p")
        params: list[Any] = list(ids)
        if ranked != expr:
            # only the paragraphs `expr` matches (a subquery: its rowids are not passed to FTS5 one by one)
            clause += " AND +f.rowid IN (SELECT rowid FROM search_para WHERE search_para MATCH ?)"
            params += [expr]
        sql = (
            f"SELECT f.rowid, {_BM25} AS s FROM search_para f "
            f"JOIN paragraph p ON p.id = f.rowid WHERE search_para MATCH ?{clause} ORDER BY s DESC LIMIT ?"
        )
        if ranked:
            return [(int(r), float(s)) for r, s in _rows(sql, [ranked, *params, limit])]
        sql = (
            "SELECT f.rowid FROM search_para f JOIN paragraph p ON p.id = f.rowid "
            f"WHERE search_para MATCH ?{clause} ORDER BY f.rowid DESC LIMIT ?"
        )
        return [(int(r), 0.0) for (r,) in _rows(sql, [expr, *params, limit])]
    if not ranked:  # nothing to order by
        return [(pk, 0.0) for pk in _newest(expr, limit)]
    matched: list[int] | None = None
    if cap:
        # a term in very many paragraphs: BM25 would read its whole posting list (its IDF) for
        # little gain in order, so past `cap` matches the newest paragraphs come first; the
        # newest cap + 1 tell, in one statement (and are every match when there are fewer)
        matched = _newest(expr, max(cap, limit - 1) + 1)
        if len(matched) > cap:
            return [(pk, 0.0) for pk in matched[:limit]]
    if ranked != expr:
        # only the paragraphs `expr` matches: those in hand, or a subquery (FTS5 is not given
        # their rowids one by one)
        within = "SELECT rowid FROM search_para WHERE search_para MATCH ?"
        if matched is not None:
            within, expr = "SELECT value FROM json_each(?)", json.dumps(matched)
        sql = (
            f"SELECT rowid, {_BM25} AS s FROM search_para WHERE search_para MATCH ? "
            f"AND +rowid IN ({within}) ORDER BY s DESC LIMIT ?"
        )
        return [(int(r), float(s)) for r, s in _rows(sql, [ranked, expr, limit])]
    sql = f"SELECT rowid, {_BM25} AS s FROM search_para WHERE search_para MATCH ? ORDER BY s DESC LIMIT ?"
    return [(int(r), float(s)) for r, s in _rows(sql, [expr, limit])]


@translated
def units_matching(expr: str, limit: int, unit_filter: str, params: Sequence[Any]) -> list[tuple[int, float]]:
    """(unit id, bm25 score) best first; `unit_filter` is an SQL condition on alias u."""
    if not expr:
        return []
    sql = (
        "SELECT f.rowid, -bm25(search_unit, 1.0, 1.0, 0.3) AS s FROM search_unit f "
        f"JOIN unit u ON u.id = f.rowid WHERE search_unit MATCH ? AND {unit_filter} ORDER BY s DESC LIMIT ?"
    )
    return [(int(r), float(s)) for r, s in _rows(sql, [expr, *params, limit])]


# --- statistics -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndexStats:
    docs: int
    bag: int
    trunc: int
    sentences: int
    changes: int = 0  # paragraphs added or removed, ever: unchanged, so is every document frequency


@translated
def index_stats() -> IndexStats:
    values = dict(_rows("SELECT key, value FROM search_stats"))
    return IndexStats(
        int(values.get("docs", 0)),
        int(values.get("bag", 0)),
        int(values.get("trunc", 0)),
        int(values.get("sentences", 0)),
        int(values.get(PARAGRAPHS_KEY, 0)),
    )


@translated
def document_frequencies(column: str, terms: Iterable[str]) -> dict[str, int]:
    """How many paragraphs hold each term in one column (words / stems / trunc)."""
    wanted = sorted(set(terms))
    out: dict[str, int] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        for term, doc in _rows(
            f"SELECT term, doc FROM search_para_vocab WHERE col = ? AND term IN ({','.join('?' * len(chunk))})",
            [column, *chunk],
        ):
            out[str(term)] = int(doc)
    return out


# --- rows for hits --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParagraphRow:
    pk: int
    article_id: int
    paragraph_id: str
    position: int
    text: str
    source_path: str
    title: str
    added_at: int
    locator_json: str | None = None  # where the paragraph sits (decoded only for the hits shown)


@translated
def paragraph_rows(pks: Iterable[int]) -> dict[int, ParagraphRow]:
    ids = sorted(set(pks))
    out: dict[int, ParagraphRow] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        for row in _rows(
            "SELECT p.id, p.article_id, p.paragraph_id, p.position, p.text, a.source_path, a.title, a.added_at, "
            "p.locator_json "
            f"FROM paragraph p JOIN article a ON a.id = p.article_id WHERE p.id IN ({','.join('?' * len(chunk))}) "
            f"AND {NOT_DELETED.format(article='p.article_id')}",
            chunk,
        ):
            out[int(row[0])] = ParagraphRow(*row)
    return out


@dataclass(frozen=True, slots=True)
class UnitRow:
    id: int
    article_id: int
    paragraph_pk: int | None  # the paragraph of its first evidence quote
    content: str


@translated
def unit_rows(unit_ids: Iterable[int]) -> dict[int, UnitRow]:
    ids = sorted(set(unit_ids))
    out: dict[int, UnitRow] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        for uid, article_id, content, pk in _rows(
            "SELECT u.id, u.article_id, u.content, (SELECT p.id FROM evidence e JOIN paragraph p "
            "ON p.article_id = u.article_id AND p.paragraph_id = e.paragraph_id WHERE e.unit_id = u.id "
            "ORDER BY e.position LIMIT 1) FROM unit u "
            f"WHERE u.id IN ({','.join('?' * len(chunk))}) AND {NOT_DELETED.format(article='u.article_id')}",
            chunk,
        ):
            out[int(uid)] = UnitRow(int(uid), int(article_id), None if pk is None else int(pk), str(content))
    return out


@translated
def feedback(pks: Iterable[int]) -> dict[tuple[int, int], int]:
    """Opens per (paragraph pk, unit id or 0)."""
    ids = sorted(set(pks))
    out: dict[tuple[int, int], int] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        for pk, uid, opens in _rows(
            f"SELECT paragraph_pk, unit_id, opens FROM search_feedback WHERE paragraph_pk IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            out[(int(pk), int(uid))] = int(opens)
    return out


@translated
def unit_filter_sql(
    statuses: Sequence[str],
    memory_types: Sequence[str],
    tags: Sequence[str],
    article_ids: Sequence[int],
    origin: str | None = None,
) -> tuple[str, list[Any]]:
    """An SQL condition on alias u (the unit table) and its parameters. `article_ids` are decks:
    the units in these articles' decks (their own units, less those Browse moved to another
    article's deck, plus those moved to them: core.storage.decks). `origin` "yours": the units
    the reader made (`extractor == READER`), "extracted": the others."""
    parts: list[str] = []
    params: list[Any] = []
    for column, values in (("u.status", statuses), ("u.memory_type", memory_types)):
        if values:
            parts.append(f"{column} IN ({','.join('?' * len(values))})")
            params.extend(values)
    if article_ids:
        parts.append(IN_DECKS.format(marks=",".join("?" * len(article_ids))))
        params.extend([*article_ids, *article_ids])  # each mark is used twice
    if tags:
        parts.append(
            "EXISTS (SELECT 1 FROM json_each(u.tags_json) j WHERE lower(j.value) IN "
            f"({','.join('?' * len(tags))}))"
        )
        params.extend(t.casefold() for t in tags)
    if origin in ORIGINS:
        parts.append("u.extractor = ?" if origin == "yours" else "u.extractor != ?")
        params.append(READER)
    return (" AND ".join(parts) or "1"), params


@translated
def tag_counts() -> list[tuple[str, int]]:
    """Tags on units that are not trashed, with how many units carry each, most used first
    (case folded as the tag filter compares them; the first spelling seen is shown)."""
    rows = _rows(
        "SELECT MIN(j.value), COUNT(DISTINCT u.id) AS n FROM unit u, json_each(u.tags_json) j "
        "WHERE u.status != 'trashed' AND trim(j.value) != '' GROUP BY lower(j.value) ORDER BY n DESC, lower(j.value)"
    )
    return [(str(tag), int(n)) for tag, n in rows]


@translated
def card_table_exists() -> bool:
    return bool(_rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'card'"))


@translated
def units_in_memory_state(
    *,
    now: int,
    due: bool,
    leech: bool,
    suspended: bool,
    retrievability_below: float | None,
    decay: float,
    factor: float,
) -> set[int]:
    """Units with at least one card in every asked state (due / leech / suspended / R below x)."""
    parts: list[str] = []
    params: list[Any] = []
    if due:
        parts.append(f"c.queue IN ({Queue.LEARNING:d}, {Queue.REVIEW:d}) AND c.due <= ?")
        params.append(now)
    if leech:
        parts.append("c.leech = 1")
    if suspended:
        parts.append("c.suspended = 1")
    if retrievability_below is not None:
        parts.append(
            "c.last_review IS NOT NULL AND c.stability > 0 AND "
            "pow(1.0 + ? * MAX(0, (? - c.last_review) / 86400) / c.stability, ?) < ?"
        )
        params.extend([factor, now, decay, retrievability_below])
    where = " AND ".join(f"({p})" for p in parts) or "1"
    return {int(r[0]) for r in _rows(f"SELECT DISTINCT c.unit_id FROM card c WHERE {where}", params)}


@translated
def paragraph_pk(article_id: int, paragraph_id: str) -> int | None:
    rows = _rows(
        "SELECT id FROM paragraph WHERE article_id = ? AND paragraph_id = ?", (article_id, paragraph_id)
    )
    return int(rows[0][0]) if rows else None


@translated
def article_path(article_id: int) -> tuple[str, str]:
    """(source path, title) of an article; ("", "") when it is gone."""
    rows = _rows("SELECT source_path, title FROM article WHERE id = ?", (article_id,))
    return (str(rows[0][0]), str(rows[0][1])) if rows else ("", "")
