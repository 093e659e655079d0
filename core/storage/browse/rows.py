"""Browse's row query: a filter as SQL, a sort key per column, pages by keyset.

Rows come from two arms: cards (joined to their question, unit and article) and units with no
card (proposals, units rejected or trashed before they were confirmed). Each arm is read in sort
order after the last row shown (`(key, id) > (last key, last id)`, never OFFSET) and the two are
merged here, so a page costs what its rows cost wherever it is in a million. The unit arm is
found through the unit status index (confirmed units have their cards), so it stays small.

The same WHERE serves the pages, the count and the bulk actions (`target_sql`), so what an
action on "the whole filter" touches is exactly what the table shows.
"""

from __future__ import annotations

import heapq
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import peewee

from core.domain.browse import BrowseFilter, BrowseRow, BrowseSort, Column, RowKey
from core.domain.errors import Cancelled
from core.domain.export import READER
from core.domain.review import Queue
from core.domain.stop import StopFlag
from core.storage.db import db, translated
from core.storage.decks import DECK_TITLE, IN_DECKS
from core.storage.review.models import queue_sql

QUEUE_NAMES = {int(q): q.label for q in Queue}
_QUEUE_OF = {name: q for q, name in QUEUE_NAMES.items()}
CARD, UNIT = 0, 1  # the arms, in their tie order
NO_CARD_STATUSES = ("proposed", "rejected", "trashed")  # a confirmed unit has its cards

_JOINS = {  # the card arm, by the table that leads (its index gives the order; CROSS JOIN keeps it first)
    "card": "FROM card c CROSS JOIN unit u ON u.id = c.unit_id CROSS JOIN article a ON a.id = u.article_id",
    "unit": "FROM unit u CROSS JOIN card c ON c.unit_id = u.id CROSS JOIN article a ON a.id = u.article_id",
    "article": "FROM article a CROSS JOIN unit u ON u.article_id = a.id CROSS JOIN card c ON c.unit_id = u.id",
}
_QUESTION = " CROSS JOIN question q ON q.id = c.question_id"
_LED = (
    "FROM card c JOIN unit u ON u.id = c.unit_id JOIN article a ON a.id = u.article_id "
    "JOIN question q ON q.id = c.question_id"
)
# The unit arm is the units of NO_CARD_STATUSES: found through the status index (few), never by
# walking a sort index over every unit.
_UNIT_FROM = "FROM unit u INDEXED BY unit_status JOIN article a ON a.id = u.article_id"
# A unit moved to another article's deck (unit.deck_id): its deck, shown beside the source and
# what the article filter goes by. Few units are moved: a lookup by primary key per shown row.
DECK_COLUMNS = f"u.deck_id, {DECK_TITLE}"
_SELECT = {
    CARD: f"c.id, u.id, q.question, u.content, a.id, a.title, u.memory_type, u.status, ({queue_sql()}), c.due, "
    "c.last_review, c.stability, c.difficulty, c.lapses, c.reps, u.tags_json, u.extractor, c.created_at, "
    "u.pinned, c.leech, u.anchor, " + DECK_COLUMNS,
    UNIT: "NULL, u.id, u.content, u.content, a.id, a.title, u.memory_type, u.status, NULL, NULL, NULL, NULL, "
    "NULL, NULL, NULL, u.tags_json, u.extractor, u.created_at, u.pinned, 0, u.anchor, " + DECK_COLUMNS,
}
_NEVER = "CAST(1e300 AS REAL)"  # the R key of a card never reviewed: after every reviewed one
R_KEY = (
    f"CASE WHEN c.last_review IS NULL OR NOT c.stability > 0 THEN {_NEVER} "
    "ELSE (c.last_review - :now) * 1.0 / c.stability END"
)  # lower R first: R falls as (now - last review) / S grows, so the key is its negative


@dataclass(frozen=True, slots=True)
class Plan:
    """How one sort is read: the table that leads, the ORDER BY terms of the card arm (ending in
    unique ids), how many lead terms its index holds, and the unit arm's terms."""

    lead: str
    terms: tuple[str, ...]
    indexed: int
    unit_terms: tuple[str, ...]
    index: str = ""  # the lead table's index that holds the order (SORT_INDEXES), "" for none


def _card_plan(key: str, index: str, *, unit_key: str = "CAST(-1 AS INTEGER)") -> Plan:
    return Plan("card", (key, "c.id"), 2 if index else 0, (unit_key, "u.id"), index)


def _unit_plan(key: str, index: str) -> Plan:
    return Plan("unit", (key, "u.id", "c.id"), 2, (key, "u.id"), index)


PLANS: dict[Column, Plan] = {
    Column.ADDED: _card_plan("c.created_at", "browse_card_added", unit_key="u.created_at"),
    Column.DUE: _card_plan("c.due", "browse_card_due"),
    Column.STATE: Plan(
        "card", ("c.queue", "c.due", "c.id"), 3, ("CAST(-9 AS INTEGER)", "u.id"), "card_queue_due"
    ),
    Column.R: _card_plan(R_KEY, "", unit_key="CAST(1e301 AS REAL)"),
    Column.STABILITY: _card_plan(
        "COALESCE(c.stability, -1)", "browse_card_stability", unit_key="CAST(-2 AS INTEGER)"
    ),
    Column.DIFFICULTY: _card_plan(
        "COALESCE(c.difficulty, -1)", "browse_card_difficulty", unit_key="CAST(-2 AS INTEGER)"
    ),
    Column.LAPSES: _card_plan("c.lapses", "browse_card_lapses"),
    Column.REPS: _card_plan("c.reps", "browse_card_reps"),
    Column.CONTENT: _unit_plan("u.content", "browse_unit_text"),
    Column.TYPE: _unit_plan("u.memory_type", "browse_unit_type"),
    Column.STATUS: _unit_plan("u.status", "browse_unit_status"),
    Column.TAGS: _unit_plan("u.tags_json", "browse_unit_tags"),
    Column.ORIGIN: _unit_plan(f"(u.extractor = '{READER}')", "browse_unit_origin"),
    Column.ARTICLE: Plan(
        "article", ("a.title", "a.id", "u.id", "c.id"), 2, ("a.title", "a.id", "u.id"), "browse_article_title"
    ),
}
# The indexes the plans read (made at open: core.storage.browse.models), named by what they order.
SORT_INDEXES: dict[str, str] = {
    "browse_card_added": "card (created_at, id)",
    "browse_card_due": "card (due, id)",
    "browse_card_stability": "card (COALESCE(stability, -1), id)",
    "browse_card_difficulty": "card (COALESCE(difficulty, -1), id)",
    "browse_card_lapses": "card (lapses, id)",
    "browse_card_reps": "card (reps, id)",
    "browse_unit_text": "unit (content, id)",
    "browse_unit_type": "unit (memory_type, id)",
    "browse_unit_status": "unit (status, id)",
    "browse_unit_tags": "unit (tags_json, id)",
    "browse_unit_origin": f"unit ((extractor = '{READER}'), id)",
    "browse_article_title": "article (title, id)",
    "browse_card_leech": "card (created_at, id) WHERE leech = 1",  # is:leech (few)
}


@dataclass(frozen=True, slots=True)
class Where:
    """One arm's WHERE (None: the filter rules the arm out) and its named parameters."""

    sql: str | None
    params: dict[str, Any]


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
    _unit_parts(f, arm, parts, params)
    if arm == CARD:
        _card_parts(f, parts, params, r_ratio)
    return Where(" AND ".join(parts) or "1", params)


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


def _unit_parts(f: BrowseFilter, arm: int, parts: list[str], params: dict[str, Any]) -> None:
    for i, word in enumerate(f.text.split()):
        params[f"w{i}"] = f"%{word}%"
        parts.append(
            f"(u.content LIKE :w{i} OR q.question LIKE :w{i})" if arm == CARD else f"u.content LIKE :w{i}"
        )
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


def _after(
    terms: tuple[str, ...],
    indexed: int,
    arm: int,
    sort: BrowseSort,
    after: tuple[Any, ...] | None,
    params: dict[str, Any],
) -> str:
    """Rows after `after` = (first key, arm, the other keys...) in the sort order, for one arm.
    The lead table's own terms are also given as a range its index can seek to."""
    if after is None:
        return ""
    last = (after[0], *after[2:])
    op = "<" if sort.descending else ">"
    if after[1] != arm:
        later = arm > after[1] if not sort.descending else arm < after[1]  # this arm follows on a tie
        params["k0"] = last[0]
        return f" AND {terms[0]} {op}{'=' if later else ''} :k0"
    names = [f"k{i}" for i in range(len(terms))]
    params.update(zip(names, last, strict=True))
    sql = f" AND ({', '.join(terms)}) {op} ({', '.join(':' + n for n in names)})"
    if 1 < indexed < len(terms):
        sql += f" AND ({', '.join(terms[:indexed])}) {op}= ({', '.join(':' + n for n in names[:indexed])})"
    return sql


# How long the walk of the sort's index may look for a page before the filter leads: the walk
# reads card rows in index order (scattered pages), so steps are a poor clock; time is checked
# every 1,000 SQLite steps.
ORDER_BUDGET_S = 0.025


def _arm_rows(
    arm: int,
    f: BrowseFilter,
    sort: BrowseSort,
    after: tuple[Any, ...] | None,
    limit: int,
    *,
    now: int,
    r_ratio: float | None,
) -> list[tuple[Any, ...]]:
    """One arm's next rows in sort order. Two ways to read them: walk the sort's index and keep
    the rows the filter takes (instant when they are many), or let the filter's own index find
    its rows and sort them (instant when they are few). The walk goes first with a budget of
    steps; when that runs out before a page is found, the filter leads."""
    w = where(f, arm, now=now, r_ratio=r_ratio)
    if w.sql is None:
        return []
    plan = PLANS[sort.column]
    terms = plan.terms if arm == CARD else plan.unit_terms
    if w.sql == "1" or plan.indexed == 0 or arm == UNIT:
        return _read(arm, w, terms, plan.indexed if arm == CARD else 0, sort, after, limit, budget=None) or []
    walked = _read(arm, w, terms, plan.indexed, sort, after, limit, budget=ORDER_BUDGET_S, index=plan.index)
    if walked is not None:
        return walked
    unindexed = tuple(f"+{t}" if t[0].isalpha() else t for t in terms)  # no index orders the rows
    return _read(arm, w, unindexed, 0, sort, after, limit, budget=None, led=True) or []


def _read(
    arm: int,
    w: Where,
    terms: tuple[str, ...],
    indexed: int,
    sort: BrowseSort,
    after: tuple[Any, ...] | None,
    limit: int,
    *,
    budget: float | None,
    index: str = "",
    led: bool = False,
) -> list[tuple[Any, ...]] | None:
    """The rows, or None when `budget` seconds ran out first. With `index`, the lead table is
    read through it (the walk in sort order, whatever the filter's own indexes)."""
    plan = PLANS[sort.column]
    source = _JOINS[plan.lead] + _QUESTION if arm == CARD else _UNIT_FROM
    if led:  # the filter leads: the planner picks the table its index starts from
        source = _LED
    if index:
        alias = {"card": "c", "unit": "u", "article": "a"}[plan.lead]
        source = source.replace(f" {alias} CROSS JOIN", f" {alias} INDEXED BY {index} CROSS JOIN", 1)
    params = dict(w.params)
    direction = " DESC" if sort.descending else ""
    keyset = _after(terms, indexed, arm, sort, after, params)
    sql = (
        f"SELECT {_SELECT[arm]}, {', '.join(terms)} {source} WHERE {w.sql}{keyset} "
        f"ORDER BY {', '.join(t + direction for t in terms)} LIMIT {int(limit)}"
    )
    width = len(terms)
    con = db.connection()
    deadline = time.perf_counter() + budget if budget is not None else 0.0
    if budget is not None:
        con.set_progress_handler(lambda: time.perf_counter() > deadline, 1_000)
    try:
        found = db.execute_sql(sql, params).fetchall()
    except (peewee.OperationalError, sqlite3.OperationalError) as exc:
        if budget is not None and time.perf_counter() > deadline and "interrupt" in str(exc):
            return None
        raise
    finally:
        if budget is not None:
            con.set_progress_handler(None, 0)
    return [(*t[:-width], (t[-width], arm, *t[-width + 1 :])) for t in found]


def _order(t: tuple[Any, ...]) -> tuple[Any, ...]:
    order: tuple[Any, ...] = t[-1]
    return order


@translated
def page(
    f: BrowseFilter,
    sort: BrowseSort,
    after: tuple[Any, ...] | None,
    limit: int,
    *,
    now: int,
    r_ratio: float | None,
) -> tuple[list[BrowseRow], tuple[Any, ...] | None]:
    """Up to `limit` rows after `after` in sort order, and the position after the last (None
    when no row follows). Retrievability is left for the caller (it owns the curve)."""
    arms = [_arm_rows(arm, f, sort, after, limit + 1, now=now, r_ratio=r_ratio) for arm in (CARD, UNIT)]
    merged: Iterator[tuple[Any, ...]] = heapq.merge(*arms, key=_order, reverse=sort.descending)
    taken = [t for _, t in zip(range(limit), merged, strict=False)]
    more = sum(len(a) for a in arms) > len(taken)
    return [_row(t) for t in taken], (_order(taken[-1]) if taken and more else None)


@translated
def count(f: BrowseFilter, *, now: int, r_ratio: float | None, stop: StopFlag | None = None) -> int:
    """Rows the filter shows. A set `stop` ends the count within a few thousand steps of SQLite
    (the filter changed: its count is no longer wanted) and raises Cancelled."""
    total = 0
    con = db.connection()
    if stop is not None:
        con.set_progress_handler(stop.is_set, 10_000)
    try:
        for arm in (CARD, UNIT):
            w = where(f, arm, now=now, r_ratio=r_ratio)
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
        return _UNIT_FROM
    source = "FROM card c JOIN unit u ON u.id = c.unit_id JOIN article a ON a.id = u.article_id"
    return source + (" JOIN question q ON q.id = c.question_id" if f.text else "")


def _row(t: tuple[Any, ...]) -> BrowseRow:
    card_id, unit_id = t[0], t[1]
    return BrowseRow(
        key=RowKey(card_id, unit_id),
        content=t[2],
        unit_content=t[3],
        article_id=t[4],
        article_title=t[5],
        memory_type=t[6],
        status=t[7],
        state=QUEUE_NAMES.get(t[8], "") if t[8] is not None else "",
        due=t[9],
        last_review=t[10],
        retrievability=None,
        stability=t[11],
        difficulty=t[12],
        lapses=t[13],
        reps=t[14],
        tags=tuple(str(x) for x in json.loads(t[15] or "[]")),
        extractor=t[16] or "",
        added=t[17],
        pinned=bool(t[18]),
        leech=bool(t[19]),
        source_changed=t[20] == "changed",
        deck_id=t[21],
        deck_title=t[22] or "",
    )
