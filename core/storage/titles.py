"""An article's title: the source's, or the one the reader gave it (issue 32).

`title` is what the library shows; `source_title` holds the source's own title while the
reader's stands in `title` (NULL: `title` is the source's). So a reimport, which reads the
source's title again, updates `source_title` and leaves the reader's title be; renaming to the
source's title (or to nothing) gives the source's title back and clears the mark.
"""

from __future__ import annotations

from core.domain import Renamed
from core.domain.errors import MemoryRushError
from core.storage.browse.models import ArticleTrash
from core.storage.db import write_transaction
from core.storage.errors import translated
from core.storage.models import Article


@translated
def take_source_title(art: Article, title: str) -> None:
    """The source's title as read again (reimport, a newer reader): the article's title unless
    the reader renamed it. The caller saves the row."""
    if art.source_title is None:
        art.title = title
    else:
        art.source_title = title


@translated
def rename_article(article_id: int, title: str) -> Renamed:
    """Give the article `title` (already one clean line; "" for the source's own). One write;
    an article that waits in the trash (deleted) is refused as one that does not exist."""
    with write_transaction():
        deleted = ArticleTrash.select(ArticleTrash.article)
        art = Article.get_or_none((Article.id == article_id) & Article.id.not_in(deleted))
        if art is None:
            raise MemoryRushError(f"article {article_id} is not in the library (deleted, or no such id)")
        before = str(art.title)
        source = str(art.title if art.source_title is None else art.source_title)
        from_source = title in ("", source)
        art.title = source if from_source else title
        art.source_title = None if from_source else source
        art.save()
        return Renamed(article_id, before, str(art.title), from_source)
