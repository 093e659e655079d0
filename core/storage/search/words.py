"""Read side of the library's vocabulary, for typo correction (core.services.search.spell)
and substrings inside words (core.services.search.substring).

Whether a word is in the library comes from the index itself (paragraphs and units); the
candidates a correction picks from come from `search_words` (see core.storage.search.index),
checked against the index before use.

Asking the index costs what it reads. A term's fts5vocab row counts its documents by walking its
whole position list (8.5 ms for a word in half of bench_search's 100k paragraphs, twice per word
as the speller asked: words and stems), so whether a term is there at all is a match that reads
its first entry (`present`, 0.03 ms), and how often, a count that stops at a cap (`counts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.storage.db import db
from core.storage.errors import translated
from core.storage.search.index import TOKENS_KEY, WORDS_KEY
from core.text.analysis import fts_phrase

_CHUNK = 500
_TABLES = ("search_para", "search_unit")


def _rows(sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    return list(db.execute_sql(sql, tuple(params)).fetchall())


@translated
def present(column: str, terms: Iterable[str]) -> set[str]:
    """Those of `terms` that a paragraph or a unit holds in `column` (words / stems): a match
    per term and table that stops at the first entry."""
    out: set[str] = set()
    for term in sorted(set(terms)):
        expr = f"{column} : {fts_phrase([term])}"
        for table in _TABLES:
            if _rows(f"SELECT 1 FROM {table} WHERE {table} MATCH ? LIMIT 1", (expr,)):
                out.add(term)
                break
    return out


@translated
def counts(column: str, terms: Iterable[str], cap: int | None = None) -> dict[str, int]:
    """Paragraphs plus units holding each term in `column`, each table's count read up to `cap`
    entries (None: all); absent terms left out."""
    out: dict[str, int] = {}
    for term in sorted(set(terms)):
        expr = f"{column} : {fts_phrase([term])}"
        n = 0
        for table in _TABLES:
            sql = f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {table} MATCH ? LIMIT ?)"
            n += int(_rows(sql, (expr, -1 if cap is None else cap))[0][0])
        if n:
            out[term] = n
    return out


@translated
def listed(words: Iterable[str]) -> set[str]:
    """Those of `words` that search_words holds (one index lookup each)."""
    wanted = sorted(set(words))
    out: set[str] = set()
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        sql = f"SELECT word FROM search_words WHERE word IN ({','.join('?' * len(chunk))})"
        out.update(str(w) for (w,) in _rows(sql, chunk))
    return out


@translated
def has_prefix(prefix: str) -> bool:
    """True when some listed word starts with `prefix` (a range read of the primary key)."""
    rows = _rows(
        "SELECT 1 FROM search_words WHERE word >= ? AND word < ? LIMIT 1", (prefix, prefix + "\uffff")
    )
    return bool(rows)


@translated
def starting_with(prefix: str, limit: int) -> list[str]:
    """Listed words and tokens (search_words, search_tokens) that start with `prefix`, the
    shortest `limit` of them, then by spelling: a range read of each primary key."""
    if not prefix:
        return []
    last = ord(prefix[-1])
    found: list[str] = []
    for table, column in (("search_words", "word"), ("search_tokens", "token")):
        if last < 0x10FFFF:
            sql = f"SELECT {column} FROM {table} WHERE {column} >= ? AND {column} < ?"
            params: tuple[str, ...] = (prefix, prefix[:-1] + chr(last + 1))
        else:
            sql, params = f"SELECT {column} FROM {table} WHERE {column} >= ?", (prefix,)
        found += [str(w) for (w,) in _rows(sql, params) if str(w).startswith(prefix)]
    return sorted(found, key=lambda w: (len(w), w))[:limit]


@translated
def every_word() -> list[str]:
    """The whole list (for the two-edit scan), in index order."""
    return [str(w) for (w,) in _rows("SELECT word FROM search_words")]


@translated
def every_token() -> list[str]:
    """search_tokens: the runs that are not English words (numbers, other scripts), in index order."""
    return [str(t) for (t,) in _rows("SELECT token FROM search_tokens")]


@translated
def vocabulary_stamp() -> tuple[int, int]:
    """(search_words' counter, search_tokens' counter): each changes whenever its table gains
    words, so a cached copy of a table is current while its counter is equal."""
    values = dict(_rows("SELECT key, value FROM search_stats WHERE key IN (?, ?)", (WORDS_KEY, TOKENS_KEY)))
    return int(values.get(WORDS_KEY, 0)), int(values.get(TOKENS_KEY, 0))
