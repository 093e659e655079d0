"""The paragraph window's lay-out ahead: while the reader reads, the page below and the page
above are laid out (fetched if need be) and their lines styled (line_memo.StyledLines keeps
them), so a page down draws lines made before the key: on the bench's 5,000-paragraph
article that was most of the key's 17-23 ms p95 (tests/tui/test_page_down_paint.py).

An async worker on the UI's loop (tui/runner.py `start_on_loop`), a paragraph a turn (a key
waits for one at most), started once what was asked for is on screen (once for many asks). It
stops once the window moved or a newer walk started (never cancelled: wait_for_complete raises
for a cancelled worker)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.geometry import Size

from tui import runner

if TYPE_CHECKING:
    from textual.dom import DOMNode


class Window(Protocol):
    """What the walk reads of the paragraph window (ParagraphWindow is one): a protocol, so this
    module needs no import of the window, which imports it."""

    count: int
    top: int
    cursor: int

    @property
    def size(self) -> Size: ...
    @property
    def is_attached(self) -> bool: ...
    def call_after_refresh(self, callback: Callable[[], Any]) -> bool: ...
    def visible_indices(self) -> list[int]: ...
    def style_ahead(self, index: int) -> int: ...


AHEAD = "laying out the pages around"  # the worker's name and group
FRAME = 1 / 60  # seconds


class LayOutAhead:
    """Started by the window after each paint that may have moved it (`later`)."""

    def __init__(self, window: Window) -> None:
        self._window = window
        self._asked = False  # a walk is asked for after the next paint
        self._walks = 0  # walks started: the last one goes on, older ones stop

    def later(self) -> None:
        """Lay out ahead once what is asked for now is on screen."""
        if not self._asked:
            self._asked = self._window.call_after_refresh(self._start)

    def _start(self) -> None:
        self._asked = False
        self._walks += 1
        window = self._window
        if window.count and window.size.height and window.is_attached:
            runner.start_on_loop(
                cast("DOMNode", window), AHEAD, partial(self._walk, self._walks), group=AHEAD
            )

    async def _walk(self, walk: int) -> None:
        # A frame first: the frame asked for is out, a key meanwhile (a held key repeats every
        # ~30 ms) is drawn before this starts.
        await asyncio.sleep(FRAME)
        window = self._window
        shown = window.visible_indices() if walk == self._walks else []
        height, where = window.size.height, (window.top, window.cursor)
        for index, step in ((shown[-1] + 1, 1), (shown[0] - 1, -1)) if shown else ():
            lines = 0
            while 0 <= index < window.count and lines < height:
                await asyncio.sleep(0)  # a turn of the loop: a key waiting goes first
                if walk != self._walks or (window.top, window.cursor) != where:
                    return  # the window moved: the walk its paint starts takes over
                lines += window.style_ahead(index)
                index += step
