"""Browse's text filter through the search index: which units can hold a word at all.

The filter itself stays `content LIKE %word%` (or the question's): a substring, ASCII case
folded, nothing else folded. Scanning a million cards for it took ~850 ms; here the search
index (`search_unit`, core.storage.search.index: every unit's content, tags, questions and
answers, normalised and tokenised) narrows the units first, and LIKE then decides among them,
so the rows are LIKE's exactly whenever the index holds every unit the word is in:

- a word of Han characters: the phrase of its characters (the index keeps each Han character
  as a token, folded to Simplified: the phrase finds both scripts, and LIKE keeps the one
  typed). Kana is left out: NFKC composes a kana with a following sound mark, so a kana the
  content holds may not be a token of the index;
- an English word (ASCII letters, two or more): the index's words that start with it (a prefix
  query) or contain it (search_words, the index's list of English words);
- anything else (digits, punctuation, LIKE's own `_` and `%`, other scripts): no narrowing.

The index leads only for a word in few units (`in_few_units`); a common word is found
quickly by LIKE in sort order. What the index cannot show: the word inside a token with digits or other letters that does
not start with it ("vid" in "covid19"); LIKE finds those, this does not. A word in more than
MAX_TERMS listed words is left to LIKE alone (it is in most units: the index would not narrow).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.storage.db import db
from core.storage.errors import translated
from core.text.cjk import HAN

MAX_TERMS = 64
# A word in more units than this is left to LIKE as the rows are read in sort order (one unit
# in 50 or more holds it: a page is found within a few thousand rows); in fewer, the index's
# units lead and are sorted. On the 1M-card bench the unit list of a word in 380k units cost
# seconds to join and sort, LIKE in sort order ~40 ms.
FEW_UNITS = 10_000
# A phrase of common characters is read only this far (its characters' positions are read
# too): beyond, LIKE in sort order goes first and the index leads only if that finds too few.
PHRASE_READ = 2000
_HAN_WORD = re.compile(f"[{HAN}]+")
_ENGLISH_WORD = re.compile("[a-z]{2,}")


@dataclass(frozen=True, slots=True)
class Match:
    """An FTS5 query over search_unit that every unit holding the word matches, and its terms
    one by one (each one's units bound how many the query can match, or the phrase's)."""

    query: str
    terms: tuple[str, ...]


@translated
def unit_match(word: str) -> Match | None:
    """The search index's query for `word` as Browse's filter reads it, or None when the index
    cannot answer for it."""
    from core.text.analysis import normalize  # the index's own normalisation (imported on first use)

    norm = normalize(word)
    if _HAN_WORD.fullmatch(word) and _HAN_WORD.fullmatch(norm):
        phrase = 'words : "' + " ".join(norm) + '"'
        return Match(phrase, tuple(f"words : {c}" for c in norm))
    if not (word.isascii() and _ENGLISH_WORD.fullmatch(norm)):
        return None
    listed = db.execute_sql(
        "SELECT word FROM search_words WHERE word LIKE ? LIMIT ?", (f"%{norm}%", MAX_TERMS + 1)
    ).fetchall()
    if len(listed) > MAX_TERMS:
        return None
    inside = [str(t) for (t,) in listed if not str(t).startswith(norm)]
    return Match(
        "words : (" + " OR ".join([f"{norm}*", *inside]) + ")", tuple(f"words : {t}" for (t,) in listed)
    )


def _units(query: str, most: int) -> int:
    row = db.execute_sql(
        "SELECT COUNT(*) FROM (SELECT rowid FROM search_unit WHERE search_unit MATCH ? LIMIT ?)",
        (query, most + 1),
    ).fetchone()
    return int(row[0])


@translated
def in_few_units(match: Match) -> bool:
    """Whether at most FEW_UNITS units match. Each term is read one at a time and only up to
    FEW_UNITS + 1 units (a prefix query over a common word merges all its units first)."""
    if match.query.startswith('words : "'):  # a phrase: in no more units than its rarest character
        if min(_units(t, FEW_UNITS) for t in match.terms) <= FEW_UNITS:
            return True
        return _units(match.query, PHRASE_READ) <= PHRASE_READ
    if any(_units(t, FEW_UNITS) > FEW_UNITS for t in match.terms):
        return False  # one listed word alone is in too many units
    return _units(match.query, FEW_UNITS) <= FEW_UNITS
