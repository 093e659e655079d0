"""An OptionList that keeps its rendered options through a Resize that changes nothing.

Textual's OptionList drops every cached option render (and every option's height) on any Resize,
including the first one after mount, which arrives after the first paint with the very width it
was painted at: a screen with a list painted it twice. Here the caches remember the width they
were built at, and are dropped when that width changes (on a Resize or at a paint, e.g. when
the scrollbar appears), not otherwise.
"""

from __future__ import annotations

from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import OptionList


class SteadyOptionList(OptionList):
    """Same API as OptionList."""

    _built_width: int | None = None  # the option width the caches hold renders for

    def _clear_caches(self) -> None:
        self._built_width = None
        super()._clear_caches()

    def _check_width(self) -> bool:
        """Drop the caches if they were built at another width; True if they are kept."""
        width = self.scrollable_content_region.width
        if self._built_width is not None and self._built_width != width:
            self._clear_caches()
        kept = self._built_width is not None
        self._built_width = width
        return kept

    def render_lines(self, crop: Region) -> list[Strip]:
        self._check_width()
        return super().render_lines(crop)

    def on_resize(self, event: events.Resize) -> None:
        if self._check_width():
            event.prevent_default()  # OptionList's handler would drop the caches
        # a list that shrank (the card below it grew) keeps its highlight in view: the Article
        # highlights a new last unit and shows its taller card in one frame
        self.scroll_to_highlight()
