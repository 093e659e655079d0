"""Browse's filter line, read into a BrowseFilter: words plus Anki-style terms.

    r<0.8  (also "R < 0.8", prop:r<0.8)   is:suspended is:leech is:pinned is:buried is:new
    is:learning is:review is:due is:changed is:yours is:proposed is:confirmed is:rejected
    is:trashed   status:confirmed  state:review  type:claim  tag:biology  article:"cell biology"
    article:12 (an id)  due<7 (due within 7 days)  added:7 (the last 7 days)  reviewed:30
    added>2026-01-01  added<2026-02-01  added:2026-01-01..2026-02-01 (the same for reviewed)

Anything else is a word to find in the content or the question. A term that cannot be read is
a problem, said in words, and the rest of the line still applies. Pure: the time and zone are
passed in, so the parser can serve the search box later.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, tzinfo
from typing import Any

from core.domain import MEMORY_TYPES, UnitStatus
from core.domain.browse import CARD_STATES, BrowseFilter

DAY = 86400
_R_TERM = re.compile(r"(?i)(?:prop:)?\br\s*<\s*(0?\.\d+|1(?:\.0*)?|0)\b")
_COMPARE = re.compile(r"(?i)^(due|added|reviewed)([<>:])(.+)$")
_STATUSES = tuple(s.value for s in UnitStatus)
_IS_FLAGS = {
    "suspended": ("suspended", True),
    "leech": ("leech", True),
    "pinned": ("pinned", True),
    "changed": ("source_changed", True),
    "yours": ("yours", True),
    "mine": ("yours", True),
    "extracted": ("yours", False),
}


@dataclass(frozen=True, slots=True)
class ParsedFilter:
    filter: BrowseFilter
    problems: tuple[str, ...] = ()


def parse_filter(line: str, *, now: int, tz: tzinfo) -> ParsedFilter:
    """The filter a line asks for and what in it could not be read."""
    found: dict[str, Any] = {}
    problems: list[str] = []
    line = _R_TERM.sub(lambda m: _take_r(m.group(1), found), line)
    try:
        tokens = shlex.split(line)
    except ValueError:  # an unclosed quote: the words as typed
        tokens = line.replace('"', " ").split()
    words: list[str] = []
    for token in tokens:
        problem = _term(token, found, words, now, tz)
        if problem:
            problems.append(problem)
    found["text"] = " ".join(words)
    return ParsedFilter(replace(BrowseFilter(), **found), tuple(problems))


def _take_r(value: str, found: dict[str, Any]) -> str:
    found["retrievability_below"] = float(value)
    return " "


def _add(found: dict[str, Any], name: str, value: object) -> None:
    found[name] = (*found.get(name, ()), value)


def _term(token: str, found: dict[str, Any], words: list[str], now: int, tz: tzinfo) -> str | None:
    name, colon, value = token.partition(":")
    name = name.casefold()
    if name == "is" and value.casefold() == "due":
        found["due_before"] = now + 1
        return None
    if colon and value and name in ("is", "status", "state", "type", "tag", "article"):
        return _named(name, value, found)
    if colon and value and name.isalpha() and name not in ("added", "reviewed", "due", "prop"):
        return f"{token}: {name}: is not a filter (is:, status:, state:, type:, tag:, article:, added:, reviewed:)"
    compare = _COMPARE.match(token)
    if compare:
        return _when(compare.group(1).casefold(), compare.group(2), compare.group(3), found, now, tz)
    words.append(token)
    return None


def _named(name: str, value: str, found: dict[str, Any]) -> str | None:
    low = value.casefold()
    if name == "tag":
        _add(found, "tags", low)
    elif name == "article":
        if value.isdigit():
            _add(found, "article_ids", int(value))
        else:
            found["article_title"] = value
    elif name == "type" and low in MEMORY_TYPES:
        _add(found, "memory_types", low)
    elif name in ("status", "is") and low in _STATUSES:
        _add(found, "statuses", low)
    elif name in ("state", "is") and low in CARD_STATES:
        _add(found, "states", low)
    elif name == "is" and low in _IS_FLAGS:
        field_name, flag = _IS_FLAGS[low]
        found[field_name] = flag
    else:
        return f"{name}:{value} is not a filter (see the filter help: r<0.8, is:suspended, tag:x, ...)"
    return None


def _when(name: str, op: str, value: str, found: dict[str, Any], now: int, tz: tzinfo) -> str | None:
    if name == "due":
        if op == "<" and value.isdigit():
            found["due_before"] = _day_start(now, tz) + (int(value) + 1) * DAY
            return None
        return f"due{op}{value}: write due<N (due within N days)"
    start, end = f"{name}_from", f"{name}_to"
    if op == ":" and value.isdigit():  # the last N days, today included
        found[start] = _day_start(now, tz) - (int(value) - 1) * DAY
        return None
    lo, dots, hi = value.partition("..")
    try:
        if op == ":" and dots:
            found[start], found[end] = _date(lo, tz), _date(hi, tz) + DAY
        elif op == ">":
            found[start] = _date(value, tz) + DAY
        elif op == "<":
            found[end] = _date(value, tz)
        else:
            found[start], found[end] = _date(value, tz), _date(value, tz) + DAY
    except ValueError:
        return f"{name}{op}{value}: dates are YYYY-MM-DD (or {name}:N for the last N days)"
    return None


def _date(text: str, tz: tzinfo) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=tz).timestamp())


def _day_start(now: int, tz: tzinfo) -> int:
    local = datetime.fromtimestamp(now, tz)
    return int((local - timedelta(hours=local.hour, minutes=local.minute, seconds=local.second)).timestamp())
