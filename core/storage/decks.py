"""Which deck a unit is in, as SQL: the one rule every reader of decks calls.

A unit's deck is its source article's unless Browse moved it (`unit.deck_id`, schema 4). Browse's
article filter, MCP's due list and the exports ask through these, never by `article_id` alone.
"""

from __future__ import annotations


def deck_of(unit: str = "u") -> str:
    """The article id whose deck the unit (table alias `unit`) is in."""
    return f"COALESCE({unit}.deck_id, {unit}.article_id)"


def in_decks(marks: list[str], unit: str = "u") -> str:
    """The unit is in one of the decks of the articles bound to `marks` (placeholders, each
    used twice: pass "?" marks' values twice, named ones once). Written so that SQLite can use
    the unit(article) and unit(deck) indexes rather than computing `deck_of` for every unit."""
    listed = ", ".join(marks)
    return f"(({unit}.article_id IN ({listed}) AND {unit}.deck_id IS NULL) OR {unit}.deck_id IN ({listed}))"


def deck_title(unit: str = "u") -> str:
    """The title of the deck's article when the unit was moved (NULL when it is the source's)."""
    return f"(SELECT d.title FROM article d WHERE d.id = {unit}.deck_id)"
