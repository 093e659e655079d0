"""Command palette provider: open any article by title (titles are untrusted: shown literally)."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from core.text import sanitize
from tui.messages import OpenArticle
from tui.reporting import Reporting


class ArticleCommands(Provider):
    """ "Open: <title>" for the first 500 articles, fuzzy matched."""

    async def startup(self) -> None:
        app: Any = self.app
        self._articles: list[tuple[int, str]] = []
        with Reporting(app, "listing articles"):
            self._articles = [
                (a.id, sanitize(a.title, single_line=True)) for a in app.services.library.articles(500)
            ]

    def _open(self, article_id: int) -> None:
        self.app.post_message(OpenArticle(article_id))

    async def discover(self) -> Hits:
        for article_id, title in self._articles[:10]:
            yield DiscoveryHit(
                Content("Open: ") + Content(title), partial(self._open, article_id), text=title
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for article_id, title in self._articles:
            score, offsets = matcher.fuzzy_search.match(matcher.query, title)
            if score > 0:
                shown = Content(title)
                for offset in offsets:
                    shown = shown.stylize("underline", offset, offset + 1)
                yield Hit(score, Content("Open: ") + shown, partial(self._open, article_id), text=title)
