"""Browse's filter as SQL: one WHERE per arm, for the pages, the count and the bulk actions
(`count` and `target_sql` are here, the ordered pages in core.storage.browse.rows).

Rows come from two arms: cards (joined to their question `q`, unit `u` and article `a`) and
units with no card (`u`, `a`: proposals, units rejected or trashed before they were confirmed).
The same WHERE serves every reader of a filter (core.storage.browse.rows), so what an action on
"the whole filter" touches is exactly what the table shows.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import peewee

from core.domain import READER
from core.domain.browse import BrowseFilter
from core.domain.errors import Cancelled
from core.domain.review import Queue
from core.domain.stop import StopFlag
from core.storage.browse import text
from core.storage.db import db
from core.storage.decks import DECK_TITLE, IN_DECKS
from core.storage.errors import translated

# The unit arm is the units of NO_CARD_STATUSES: found through the status index (few), never by
# walking a sort index over every unit.
UNIT_FROM = "FROM unit u INDEXED BY browse_unit_status JOIN article a ON a.id = u.article_id"
QUEUE_NAMES = {int(q): q.label for q in Queue}
_QUEUE_OF = {name: q for q, name in QUEUE_NAMES.items()}
CARD, UNIT = 0, 1  # the arms, in their tie order
NO_CARD_STATUSES = ("proposed", "rejected", "trashed")  # a confirmed unit has its cards


@dataclass(frozen=True, slots=True)
class Where:
    """One arm's WHERE (None: the filter rules the arm out) and its named parameters."""

    sql: str | None
    params: dict[str, Any]
    narrow: bool = False  # a word of the text filter is in few units: the search index leads
    index_sql: str = ""  # the search index's part for the other words (where the filter leads)

    def leading(self) -> Where:
        """The WHERE for a read the filter leads: with the search index's part of every word."""
        return Where(f"{self.sql}{self.index_sql}", self.params, self.narrow)


@translated
def where(f: BrowseFilter, arm: int, *, now: int, r_ratio: float | None) -> Where:
    """The filter as SQL over one arm. `r_ratio` is (days since the last review) / S at which R
    falls to `f.retrievability_below` (the caller's forgetting curve)."""
    parts: list[str] = []
    params: dict[str, Any] = {"now": now}
    if arm == UNIT:
        if _needs_card(f):
            return Where(None, params)
        parts.append(f"u.status IN ({', '.join(repr(s) for s in NO_CARD_STATUSES)})")
        parts.append("NOT EXISTS (SELECT 1 FROM card c WHERE c.unit_id = u.id)")
    narrow, index_sql = _text_parts(f, arm, parts, params)
    _unit_parts(f, arm, parts, params)
    if arm == CARD:
        _card_parts(f, parts, params, r_ratio)
    return Where(" AND ".join(parts) or "1", params, narrow, index_sql)


def _needs_card(f: BrowseFilter) -> bool:
    return bool(
        f.states
        or f.due_before is not None
        or f.leech
        or f.suspended
        or f.retrievability_below is not None
        or f.reviewed_from is not None
        or f.reviewed_to is not None
    )


def _in(parts: list[str], params: dict[str, Any], column: str, name: str, values: tuple[Any, ...]) -> None:
    if values:
        names = [f"{name}{i}" for i in range(len(values))]
        parts.append(f"{column} IN ({', '.join(':' + n for n in names)})")
        params.update(zip(names, values, strict=True))


def _in_deck(parts: list[str], params: dict[str, Any], article_ids: tuple[int, ...]) -> None:
    """The rows in these articles' decks: their own units not moved, and units moved to them."""
    if article_ids:
        parts.append(IN_DECKS.format(marks=", ".join(f":ar{i}" for i in range(len(article_ids)))))
        params.update((f"ar{i}", v) for i, v in enumerate(article_ids))


def _text_parts(f: BrowseFilter, arm: int, parts: list[str], params: dict[str, Any]) -> tuple[bool, str]:
    """Each word of the text, by LIKE. A word in few units is first looked up in the search
    index (core.storage.browse.text), which then leads (True); the index's part for the other
    words is returned apart, for a read the filter leads (a walk in sort order that found too
    few rows)."""
    narrow, index_sql = False, ""
    for i, word in enumerate(f.text.split()):
        params[f"w{i}"] = f"%{word}%"
        match = text.unit_match(word)  # the units that can hold it, through the search index
        if match is not None:
            params[f"m{i}"] = match.query
            units = f"u.id IN (SELECT rowid FROM search_unit WHERE search_unit MATCH :m{i})"
            if text.in_few_units(match):
                parts.append(units)
                narrow = True
            else:
                index_sql += f" AND {units}"
        parts.append(
            f"(u.content LIKE :w{i} OR q.question LIKE :w{i})" if arm == CARD else f"u.content LIKE :w{i}"
        )
    return narrow, index_sql


def _unit_parts(f: BrowseFilter, arm: int, parts: list[str], params: dict[str, Any]) -> None:
    _in(parts, params, "u.status", "st", f.statuses)
    _in(parts, params, "u.memory_type", "mt", f.memory_types)
    _in_deck(parts, params, f.article_ids)
    if f.tags:
        names = [f"tg{i}" for i in range(len(f.tags))]
        parts.append(
            f"EXISTS (SELECT 1 FROM json_each(u.tags_json) j WHERE lower(j.value) IN ({', '.join(':' + n for n in names)}))"
        )
        params.update(zip(names, (t.casefold() for t in f.tags), strict=True))
    if f.article_title:
        params["title"] = f"%{f.article_title}%"
        parts.append(f"COALESCE({DECK_TITLE}, a.title) LIKE :title")  # the deck's title
    for flag, sql in ((f.pinned, "u.pinned = 1"), (f.source_changed, "u.anchor = 'changed'")):
        if flag is not None:
            parts.append(sql if flag else f"NOT ({sql})")
    if f.yours is not None:
        parts.append(f"u.extractor {'=' if f.yours else '!='} '{READER}'")
    added = "c.created_at" if arm == CARD else "u.created_at"
    _between(parts, params, added, "ad", f.added_from, f.added_to)
    if f.leech is False and arm == CARD:
        parts.append("c.leech = 0")
    if f.suspended is False and arm == CARD:
        parts.append("c.suspended = 0")


def _card_parts(f: BrowseFilter, parts: list[str], params: dict[str, Any], r_ratio: float | None) -> None:
    # the stored queue (its index): BrowseService.start lifts ended burials first
    _in(parts, params, "c.queue", "qu", tuple(_QUEUE_OF[s] for s in f.states if s in _QUEUE_OF))
    if f.due_before is not None:
        parts.append(f"c.queue IN ({Queue.LEARNING:d}, {Queue.REVIEW:d}) AND c.due < :due_before")
        params["due_before"] = f.due_before
    if f.leech:
        parts.append("c.leech = 1")
    if f.suspended:  # through the queue index: a suspended card waits in SUSPENDED, or INACTIVE
        parts.append(f"(c.queue = {Queue.SUSPENDED:d} OR (c.queue = {Queue.INACTIVE:d} AND c.suspended = 1))")
    if r_ratio is not None:  # R < x  <=>  (now - last review) / S > r_ratio (days)
        parts.append(
            "c.last_review IS NOT NULL AND c.stability > 0 AND c.last_review + :rk * c.stability < :now"
        )
        params["rk"] = r_ratio * 86400
    _between(parts, params, "c.last_review", "rv", f.reviewed_from, f.reviewed_to)


def _between(
    parts: list[str], params: dict[str, Any], column: str, name: str, lo: int | None, hi: int | None
) -> None:
    if lo is not None:
        parts.append(f"{column} >= :{name}_lo")
        params[f"{name}_lo"] = lo
    if hi is not None:
        parts.append(f"{column} < :{name}_hi")
        params[f"{name}_hi"] = hi


@translated
def count(f: BrowseFilter, *, now: int, r_ratio: float | None, stop: StopFlag | None = None) -> int:
    """Rows the filter shows. A set `stop` ends the count within a few thousand steps of SQLite
    (the filter changed: its count is no longer wanted) and raises Cancelled, also when it was
    set before the count began (nothing is read then)."""
    if stop is not None and stop.is_set():
        raise Cancelled("the count was no longer wanted")
    # The WHEREs first, outside the stop's progress handler: a text filter's WHERE reads the
    # search index (text.unit_match), whose own errors are translated before they reach here.
    arms = [(arm, where(f, arm, now=now, r_ratio=r_ratio)) for arm in (CARD, UNIT)]
    total = 0
    con = db.connection()
    if stop is not None:
        con.set_progress_handler(stop.is_set, 10_000)
    try:
        for arm, w in arms:
            if w.sql is not None:
                sql = f"SELECT COUNT(*) {_from(arm, f)} WHERE {w.sql}"
                total += int(db.execute_sql(sql, w.params).fetchone()[0])
    except (peewee.OperationalError, sqlite3.OperationalError) as exc:
        if stop is not None and stop.is_set() and "interrupt" in str(exc):
            raise Cancelled("the count was no longer wanted") from None
        raise
    finally:
        if stop is not None:
            con.set_progress_handler(None, 0)
    return total


@translated
def target_sql(
    f: BrowseFilter, arm: int, *, now: int, r_ratio: float | None
) -> tuple[str, dict[str, Any]] | None:
    """`SELECT card id, unit id ...` of every row of one arm the filter shows (for bulk writes)."""
    w = where(f, arm, now=now, r_ratio=r_ratio)
    if w.sql is None:
        return None
    ids = "c.id, u.id" if arm == CARD else "NULL, u.id"
    return f"SELECT {ids} {_from(arm, f)} WHERE {w.sql}", w.params


def _from(arm: int, f: BrowseFilter) -> str:
    """The arm's tables for a count or a target (no order: the planner picks the lead)."""
    if arm == UNIT:
        return UNIT_FROM
    source = "FROM card c JOIN unit u ON u.id = c.unit_id JOIN article a ON a.id = u.article_id"
    return source + (" JOIN question q ON q.id = c.question_id" if f.text else "")
