"""Read side of the library's vocabulary, for typo correction (core.services.search.spell)
and substrings inside words (core.services.search.substring).

Whether a word is in the library comes from the index itself (fts5vocab point lookups over
paragraphs and units); the candidates a correction picks from come from `search_words` (see
core.storage.search.index), checked against the index before use.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.storage.db import db
from core.storage.errors import translated
from core.storage.search.index import TOKENS_KEY, WORDS_KEY

_CHUNK = 500
_VOCABS = ("search_para_vocab", "search_unit_vocab")


def _rows(sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    return list(db.execute_sql(sql, tuple(params)).fetchall())


@translated
def frequencies(column: str, terms: Iterable[str]) -> dict[str, int]:
    """Paragraphs plus units holding each term in one column (words / stems); absent terms left out."""
    wanted = sorted(set(terms))
    out: dict[str, int] = {}
    for table in _VOCABS:
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT term, doc FROM {table} WHERE col = ? AND term IN ({marks})"
            for term, doc in _rows(sql, [column, *chunk]):
                out[str(term)] = out.get(str(term), 0) + int(doc)
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
