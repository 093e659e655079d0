"""Browse's row query: a filter as SQL, a sort key per column, pages by keyset.

Rows come from two arms: cards (joined to their question, unit and article) and units with no
card (proposals, units rejected or trashed before they were confirmed). Each arm is read in sort
order after the last row shown (`(key, id) > (last key, last id)`, never OFFSET) and the two are
merged here, so a page costs what its rows cost wherever it is in a million. The unit arm is
found through the unit status index (confirmed units have their cards), so it stays small.

The filter's WHERE is core.storage.browse.where's; the same serves the pages, the count and the
bulk actions (where.count, where.target_sql), so what an action on "the whole filter" touches
is what the table shows. The sort by R reads through its own index (rsort.py), the sort by due
through the queue index, one queue at a time (by_queue.py).
"""

from __future__ import annotations

import heapq
import json
import math
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import peewee

from core.domain import READER
from core.domain.browse import BrowseFilter, BrowseRow, BrowseSort, Column, RowKey
from core.storage.browse import by_queue, rsort
from core.storage.browse.indexes import NEVER_INDEX, R_INDEX
from core.storage.browse.where import CARD, QUEUE_NAMES, UNIT, UNIT_FROM, Where, where
from core.storage.db import db
from core.storage.decks import DECK_TITLE
from core.storage.errors import translated
from core.storage.review.models import queue_sql

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
# A unit moved to another article's deck (unit.deck_id): its deck, shown beside the source and
# what the article filter goes by. Few units are moved: a lookup by primary key per shown row.
# What each BrowseRow field is read from, in the card arm and in the unit arm (a unit without a
# card: no card columns); its key is the card's and the unit's ids. `_row` maps a row by these
# names, so the two arms' SELECT lists cannot fall out of step.
_COLUMNS: dict[str, tuple[str, str]] = {
    "card_id": ("c.id", "NULL"),
    "unit_id": ("u.id", "u.id"),
    "content": ("q.question", "u.content"),
    "unit_content": ("u.content", "u.content"),
    "article_id": ("a.id", "a.id"),
    "article_title": ("a.title", "a.title"),
    "memory_type": ("u.memory_type", "u.memory_type"),
    "status": ("u.status", "u.status"),
    "state": (f"({queue_sql()})", "NULL"),
    **{
        name: (f"c.{name}", "NULL")
        for name in ("due", "last_review", "stability", "difficulty", "lapses", "reps")
    },
    "tags": ("u.tags_json", "u.tags_json"),
    "extractor": ("u.extractor", "u.extractor"),
    "added": ("c.created_at", "u.created_at"),
    "pinned": ("u.pinned", "u.pinned"),
    "leech": ("c.leech", "0"),
    "source_changed": ("u.anchor", "u.anchor"),
    "deck_id": ("u.deck_id", "u.deck_id"),
    "deck_title": (DECK_TITLE, DECK_TITLE),
}
_SELECT = {arm: ", ".join(sql[arm] for sql in _COLUMNS.values()) for arm in (CARD, UNIT)}
_NEVER = "CAST(1e300 AS REAL)"  # the R key of a card never reviewed: after every reviewed one
NEVER_KEY = 1e300
R_KEY = f"CASE WHEN {rsort.FINITE} THEN (c.last_review - :now) * 1.0 / c.stability ELSE {_NEVER} END"
# lower R first: R falls as (now - last review) / S grows, so the key is its negative (rsort.py)


@dataclass(frozen=True, slots=True)
class Plan:
    """How one sort is read: the table that leads, the ORDER BY terms of the card arm (ending in
    unique ids), how many lead terms its index holds, and the unit arm's terms."""

    lead: str
    terms: tuple[str, ...]
    indexed: int
    unit_terms: tuple[str, ...]
    index: str = ""  # the lead table's index that holds the order (indexes.SORT_INDEXES), "" for none
    by_queue: bool = False  # the index is (queue, key): one range per queue, merged (by_queue.py)


def _card_plan(key: str, index: str, *, unit_key: str = "CAST(-1 AS INTEGER)") -> Plan:
    return Plan("card", (key, "c.id"), 2 if index else 0, (unit_key, "u.id"), index)


def _unit_plan(key: str, index: str) -> Plan:
    return Plan("unit", (key, "u.id", "c.id"), 2, (key, "u.id"), index)


PLANS: dict[Column, Plan] = {
    Column.ADDED: _card_plan("c.created_at", "browse_card_added", unit_key="u.created_at"),
    Column.DUE: Plan(
        "card", ("c.due", "c.id"), 2, ("CAST(-1 AS INTEGER)", "u.id"), by_queue.INDEX, by_queue=True
    ),
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
# every CHECK_STEPS SQLite steps (~1 ms of a walk). The time is the reading thread's CPU, not the
# wall clock: each check takes the GIL, and while another thread holds it (the UI thread
# painting, a notice) a check waits up to the switch interval (5 ms). With a wall budget checked
# every 1,000 steps a walk of 5 ms CPU ran out and the filter led instead: for `memory` (765k of
# 1M cards) a sort of every row, 3.0 s CPU and 6.9 s wall on the bench (bench/bench_browse.py).
# The wall clock only bounds a walk stalled on a cold disk (WALK_WALL_S).
ORDER_BUDGET_S = 0.025
CHECK_STEPS = 10_000
WALK_WALL_S = 2.0


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
    if sort.column == Column.R and arm == CARD and not w.narrow:
        return _r_rows(w, sort, after, limit, now)
    if w.narrow:  # the search index's few units lead (where._text_parts)
        return _read(arm, w, _unindexed(terms), 0, sort, after, limit, budget=None, led=arm == CARD) or []
    if w.sql == "1" or plan.indexed == 0 or arm == UNIT:
        return _read(arm, w, terms, plan.indexed if arm == CARD else 0, sort, after, limit, budget=None) or []
    walked = _read(arm, w, terms, plan.indexed, sort, after, limit, budget=ORDER_BUDGET_S, index=plan.index)
    if walked is not None:
        return walked
    return _read(arm, w.leading(), _unindexed(terms), 0, sort, after, limit, budget=None, led=True) or []


def _unindexed(terms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"+{t}" if t[0].isalpha() else t for t in terms)  # no index orders the rows


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
    source: str = "",
) -> list[tuple[Any, ...]] | None:
    """The rows, or None when `budget` seconds ran out first. With `index`, the lead table is
    read through it (the walk in sort order, whatever the filter's own indexes); `source` is
    a FROM of the caller's."""
    plan = PLANS[sort.column]
    merge = plan.by_queue and arm == CARD and not (led or source) and terms == plan.terms
    index = plan.index if merge else index
    source = source or (_JOINS[plan.lead] + _QUESTION if arm == CARD else UNIT_FROM)
    if led:  # the filter leads: the planner picks the table its index starts from
        source = _LED
    if index:
        alias = {"card": "c", "unit": "u", "article": "a"}[plan.lead]
        source = source.replace(f" {alias} CROSS JOIN", f" {alias} INDEXED BY {index} CROSS JOIN", 1)
    params = dict(w.params)
    direction = " DESC" if sort.descending else ""
    keyset = _after(terms, indexed, arm, sort, after, params)
    head, tail = f"SELECT {_SELECT[arm]}", f"{source} WHERE {w.sql}{keyset}"
    sql = (
        by_queue.merged(head, tail, terms, direction, limit)
        if merge
        else f"{head}, {', '.join(terms)} {tail} ORDER BY {', '.join(t + direction for t in terms)} LIMIT {int(limit)}"
    )
    width = len(terms)
    con = db.connection()
    spent = _Spent(budget or 0.0)
    if budget is not None:
        con.set_progress_handler(spent, CHECK_STEPS)
    try:
        found = db.execute_sql(sql, params).fetchall()
    except (peewee.OperationalError, sqlite3.OperationalError) as exc:
        if budget is not None and spent.out and "interrupt" in str(exc):
            return None
        raise
    finally:
        if budget is not None:
            con.set_progress_handler(None, 0)
    return [(*t[:-width], (t[-width], arm, *t[-width + 1 :])) for t in found]


class _Spent:
    """A walk's progress handler: true (stop) once the thread spent `budget` seconds of CPU on
    the read, or WALK_WALL_S passed (see ORDER_BUDGET_S)."""

    def __init__(self, budget: float) -> None:
        self.cpu_end = time.thread_time() + budget
        self.wall_end = time.perf_counter() + WALK_WALL_S
        self.out = False

    def __call__(self) -> bool:
        self.out = time.thread_time() > self.cpu_end or time.perf_counter() > self.wall_end
        return self.out


def _r_rows(
    w: Where, sort: BrowseSort, after: tuple[Any, ...] | None, limit: int, now: int
) -> list[tuple[Any, ...]]:
    """The card arm sorted by R (rsort.py): reviewed cards (K < NEVER_KEY) and those never
    reviewed (K = NEVER_KEY, by id), each part from the page's position on, in sort order."""
    k0 = after[0] if after is not None else None
    if k0 is not None and (k0 > NEVER_KEY if not sort.descending else k0 < NEVER_KEY):
        parts = ["finite"] if sort.descending else []  # past the never-reviewed part
    elif k0 == NEVER_KEY:
        parts = ["never", "finite"] if sort.descending else ["never"]
    else:
        parts = ["never", "finite"] if sort.descending else ["finite", "never"]
    found: list[tuple[Any, ...]] = []
    for part in parts:
        if len(found) >= limit:
            break
        at = (
            after
            if after is not None and after[1] == CARD and (part == "never") == (k0 == NEVER_KEY)
            else None
        )
        read = _r_finite if part == "finite" else _r_never
        found += read(w, sort, at, limit - len(found), now)
    return found


def _r_finite(
    w: Where, sort: BrowseSort, after: tuple[Any, ...] | None, limit: int, now: int
) -> list[tuple[Any, ...]]:
    """Reviewed cards up to rsort's cut (widened once when the filter keeps too few), else the
    filter leads."""
    pairs = rsort.buckets()
    if not pairs:
        return []
    desc = sort.descending
    pos = (after[0], after[2]) if after is not None else None
    terms = (R_KEY, "c.id")
    for need in (limit, 16 * limit):
        cut = rsort.cut(now, desc, pos, need, pairs)
        span: tuple[float, float] = (
            (cut.k, pos[0] if pos else math.inf) if desc else (pos[0] if pos else -math.inf, cut.k)
        )
        ranges = ", ".join(f"({b}, %d, %d)" % rsort.review_range(*span, b, now) for b in pairs)
        source = (
            f"FROM (VALUES {ranges}) v CROSS JOIN card c INDEXED BY {R_INDEX} ON c.sbucket = v.column1 "
            "AND c.last_review BETWEEN v.column2 AND v.column3 "
            + _JOINS["card"].removeprefix("FROM card c ")
            + _QUESTION
        )
        bound = "" if cut.complete else f" AND {R_KEY} {'>=' if desc else '<='} :kcut"
        narrowed = Where(f"{w.sql} AND {rsort.FINITE}{bound}", {**w.params, "kcut": cut.k})
        got = _read(CARD, narrowed, terms, 0, sort, after, limit, budget=ORDER_BUDGET_S, source=source)
        if got is None:
            break
        if len(got) >= limit or cut.complete:
            return got
    led = Where(f"{w.leading().sql} AND {rsort.FINITE}", w.params)
    return _read(CARD, led, terms, 0, sort, after, limit, budget=None, led=True) or []


def _r_never(
    w: Where, sort: BrowseSort, after: tuple[Any, ...] | None, limit: int, now: int
) -> list[tuple[Any, ...]]:
    """Cards never reviewed, by id, through their partial index (else the filter leads). Their
    key is NEVER_KEY: ordered by id alone, so the index gives the order (no sort)."""
    params = dict(w.params)
    if after is not None:  # the position as a range of the index
        params["nid"] = after[2]
    seek = "" if after is None else f" AND c.id {'<' if sort.descending else '>'} :nid"
    never = Where(f"{w.sql} AND NOT ({rsort.FINITE}){seek}", params)
    source = _JOINS["card"].replace("card c", f"card c INDEXED BY {NEVER_INDEX}", 1) + _QUESTION
    found = _read(CARD, never, ("c.id",), 1, sort, None, limit, budget=ORDER_BUDGET_S, source=source)
    if found is None:
        led = Where(f"{never.sql}{w.index_sql}", params)
        found = _read(CARD, led, ("+c.id",), 0, sort, None, limit, budget=None, led=True) or []
    return [(*t[:-1], (NEVER_KEY, CARD, t[-1][0])) for t in found]


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


def _row(t: tuple[Any, ...]) -> BrowseRow:
    """A row read with _SELECT (its sort key last), by _COLUMNS' names."""
    v = dict(zip(_COLUMNS, t, strict=False))
    key = RowKey(v.pop("card_id"), v.pop("unit_id"))
    v.update(
        state=QUEUE_NAMES.get(v["state"], ""),  # "" for a unit without a card
        tags=tuple(str(x) for x in json.loads(v["tags"] or "[]")),
        extractor=v["extractor"] or "",
        pinned=bool(v["pinned"]),
        leech=bool(v["leech"]),
        source_changed=v["source_changed"] == "changed",
        deck_title=v["deck_title"] or "",
    )
    return BrowseRow(key=key, retrievability=None, **v)
