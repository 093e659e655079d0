"""Full-text search index kept in step with the library (owned by the search work).

`index_article(article_id)` / `reindex_unit(unit_id)` / `remove_unit(unit_id)` are called by
repositories inside the same transaction as the write they follow.
"""

from __future__ import annotations


def index_article(article_id: int) -> None:
    """Index an article's paragraphs and units. Called inside the import transaction."""


def reindex_unit(unit_id: int) -> None:
    """Refresh one unit's entry after an edit, status change, trash or restore."""


def remove_unit(unit_id: int) -> None:
    """Drop one unit from the index (purge). Called inside the caller's transaction."""
