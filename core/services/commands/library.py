"""The library's writes from its screens: an article's title of yours (Library `r`), and where
you were reading it (the Article remembers it as you leave)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.services.commands import Command

if TYPE_CHECKING:
    from core.domain.model import Renamed
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class Rename(Command["Renamed"]):
    """Give the article the reader's title ("" gives back its source's title)."""

    article_id: int
    title: str
    what: ClassVar[str] = "renaming the article"

    def handle(self, services: Services) -> Renamed:
        return services.library.rename_article(self.article_id, self.title)


@dataclass(frozen=True, slots=True)
class RememberPosition(Command[None]):
    """The paragraph the reader was at in the article: it opens there next time."""

    article_id: int
    position: int
    what: ClassVar[str] = "remembering the reading position"

    def handle(self, services: Services) -> None:
        services.library.remember_position(self.article_id, self.position)
