"""What screens ask of the app: messages up (attributes down), so no screen imports or calls
the app. Each is handled by MemoryRushApp (the handler named in its docstring); the last two go
the other way, from the app to its screens."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from core.domain.search import SearchHit


@dataclass
class OpenArticle(Message):
    """Open the evidence browser on an article (at a unit, or at a paragraph index), from the
    palette's article list. Handled by `MemoryRushApp.on_open_article`. A screen's key opens it
    with `BaseScreen.open_article` instead: at once, before the next key (tui/typed_on.py)."""

    article_id: int
    _: KW_ONLY
    unit_id: int | None = None
    paragraph: int | None = None


class FirstFrameShown(Message, bubble=False):
    """Sent by the app to every screen once its first frame is on screen: work the first frame
    does not need (a worker's imports and queries) starts here. Handled by `on_first_frame_shown`."""


@dataclass
class BackupProgressed(Message):
    """Pages copied so far. Handled by `on_backup_progressed` (Settings shows it)."""

    done: int
    total: int


@dataclass
class SearchHitOpened(Message):
    """A hit of the search was opened (the ranking's use signal, recorded by the app in a worker:
    a write). Handled by `MemoryRushApp.on_search_hit_opened`."""

    hit: SearchHit


@dataclass
class OpenBrowse(Message):
    """Open Browse on a filter line (the search box's words). Handled by
    `MemoryRushApp.on_open_browse`."""

    query: str = ""
