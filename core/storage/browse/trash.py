"""The trash: units trashed (by hand, by a retire, with a deleted article) and deleted articles,
each purged for good 30 days on; restore or purge now."""

from __future__ import annotations

from collections.abc import Sequence

from core.domain.browse import TrashEntry
from core.storage.browse.models import ArticleTrash
from core.storage.db import db
from core.storage.errors import translated
from core.storage.models import Article
from core.storage.search import index as search_index

KEEP_DAYS = 30  # how long the trash keeps things (core.services.curation purges at start-up)


@translated
def units(limit: int, offset: int = 0) -> list[TrashEntry]:
    """Trashed units, the soonest purged first."""
    rows = db.execute_sql(
        "SELECT u.id, u.content, a.title, u.trashed_at, (SELECT COUNT(*) FROM card c WHERE c.unit_id = u.id) "
        "FROM unit u JOIN article a ON a.id = u.article_id WHERE u.status = 'trashed' "
        "ORDER BY u.trashed_at, u.id LIMIT ? OFFSET ?",
        (limit, offset),
    )
    return [TrashEntry(r[0], r[1], r[2], r[3] or 0, (r[3] or 0) + KEEP_DAYS * 86400, r[4]) for r in rows]


@translated
def count_units() -> int:
    return int(db.execute_sql("SELECT COUNT(*) FROM unit WHERE status = 'trashed'").fetchone()[0])


@translated
def articles() -> list[tuple[int, str, int]]:
    """Deleted articles: (id, title, deleted at), the soonest purged first."""
    rows = db.execute_sql(
        "SELECT a.id, a.title, t.trashed_at FROM article_trash t JOIN article a ON a.id = t.article_id "
        "ORDER BY t.trashed_at, a.id"
    )
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


@translated
def is_deleted(article_id: int) -> bool:
    return ArticleTrash.get_or_none(ArticleTrash.article == article_id) is not None


@translated
def mark_deleted(article_id: int, now: int) -> bool:
    """List the article as deleted (inside the caller's transaction). False when it is gone or
    already deleted."""
    if Article.get_or_none(Article.id == article_id) is None or is_deleted(article_id):
        return False
    ArticleTrash.create(article=article_id, trashed_at=now)
    return True


@translated
def unmark_deleted(article_id: int) -> int | None:
    """Take the article off the deleted list; when it was deleted (None: it was not)."""
    row = ArticleTrash.get_or_none(ArticleTrash.article == article_id)
    if row is None:
        return None
    ArticleTrash.delete().where(ArticleTrash.article == article_id).execute()
    return int(row.trashed_at)


@translated
def purge_units(unit_ids: Sequence[int]) -> int:
    """Delete trashed units for good, with their cards and history (inside the caller's
    transaction). Units not in the trash are left alone."""
    ids = (
        [
            int(r[0])
            for r in db.execute_sql(
                f"SELECT id FROM unit WHERE status = 'trashed' AND id IN ({', '.join('?' * len(unit_ids))})",
                tuple(unit_ids),
            )
        ]
        if unit_ids
        else []
    )
    for unit_id in ids:
        search_index.remove_unit(unit_id)
    if ids:
        db.execute_sql(f"DELETE FROM unit WHERE id IN ({', '.join('?' * len(ids))})", tuple(ids))
    return len(ids)


@translated
def purge_articles(older_than: int) -> int:
    """Delete for good the articles deleted before `older_than`, with everything of theirs
    (inside the caller's transaction)."""
    ids = [
        int(r[0])
        for r in db.execute_sql("SELECT article_id FROM article_trash WHERE trashed_at < ?", (older_than,))
    ]
    for article_id in ids:
        search_index.remove_article(article_id)
        Article.delete().where(Article.id == article_id).execute()
    return len(ids)
