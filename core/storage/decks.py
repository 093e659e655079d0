"""Which deck a unit is in, as SQL: the one rule every reader of decks uses.

A unit's deck is its source article's unless Browse moved it (`unit.deck_id`, schema 4). Browse's
article filter, MCP's due list, Find's article filter and the exports ask through these, never by
`article_id` alone. SQL text over a unit aliased `u` (no I/O here).
"""

from __future__ import annotations

# The unit is in the deck of one of the articles bound to {marks}: its own units not moved, and
# units moved there. Written so that SQLite can use the unit(article) and unit(deck) indexes
# rather than work out every unit's deck. Each mark is used twice: bind "?" marks' values twice.
# `+u.deck_id IS NULL` is no index term: with a long list of articles SQLite otherwise read the
# first half by unit(deck)'s NULL entries, i.e. every unit not moved (500 articles of a million
# cards: 0.5 s CPU to find 100k cards, 0.2 s by unit(article)).
IN_DECKS = "((u.article_id IN ({marks}) AND +u.deck_id IS NULL) OR u.deck_id IN ({marks}))"

# The title of the deck's article when the unit was moved (NULL when it is its own article's).
DECK_TITLE = "(SELECT d.title FROM article d WHERE d.id = u.deck_id)"

# The article whose deck the unit is in (the Python form: ExportUnit.deck).
DECK_OF = "COALESCE(u.deck_id, u.article_id)"
