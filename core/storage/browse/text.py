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

What the index cannot show: the word inside a token with digits or other letters that does
not start with it ("vid" in "covid19"); LIKE finds those, this does not. A word in more than
MAX_TERMS listed words is left to LIKE alone (it is in most units: the index would not narrow).
"""

from __future__ import annotations

import re

from core.storage.db import db, translated
from core.text.cjk import HAN

MAX_TERMS = 64
_HAN_WORD = re.compile(f"[{HAN}]+")
_ENGLISH_WORD = re.compile("[a-z]{2,}")


@translated
def unit_match(word: str) -> str | None:
    """An FTS5 query over search_unit that every unit holding `word` (as Browse's filter reads
    it) matches, or None when the index cannot answer for it."""
    from core.text.analysis import normalize  # the index's own normalisation (imported on first use)

    norm = normalize(word)
    if _HAN_WORD.fullmatch(word) and _HAN_WORD.fullmatch(norm):
        return 'words : "' + " ".join(norm) + '"'
    if not (word.isascii() and _ENGLISH_WORD.fullmatch(norm)):
        return None
    inside = db.execute_sql(
        "SELECT word FROM search_words WHERE word LIKE ? AND word NOT LIKE ? LIMIT ?",
        (f"%{norm}%", f"{norm}%", MAX_TERMS + 1),
    ).fetchall()
    if len(inside) > MAX_TERMS:
        return None
    return "words : (" + " OR ".join([f"{norm}*", *(str(t) for (t,) in inside)]) + ")"
