"""What a screen asks of the app to go somewhere at once: a protocol, so that screens need
import neither the app (the import contracts forbid it) nor the screens they open (an article
screen is itself a BaseScreen: importing it from BaseScreen made a circle).

A screen opens the article with `navigator(self.app).open_article(...)`: pushed now, so the next
key runs against it (tui/typed_on.py); a message would arrive after that key.
"""

from __future__ import annotations

from typing import Protocol, cast

from textual.app import App


class Navigator(Protocol):
    def open_article(
        self, article_id: int, *, unit_id: int | None = None, paragraph: int | None = None
    ) -> None:
        """The evidence browser on an article (at a unit, or a paragraph index), on top now."""


def navigator(app: App[object]) -> Navigator:
    """The app as a Navigator (MemoryRushApp is one)."""
    return cast(Navigator, app)
