"""The one-line title bar at the top of every screen: Textual's Header look, as one widget.

Textual's Header is four widgets (icon, title, clock space, and itself), each styled, mounted and
painted on its own; on a screen's first frame that is a good part of the work. This paints the
same line (icon on the left, "title — sub-title" centred between the icon and the clock space)
from one widget. Clicking the icon opens the command palette, as the Header's does.
"""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.events import Click
from textual.widget import Widget

ICON = "⭘"
ICON_WIDTH = 8  # Header's icon cell: width 8, padding 0 1
CLOCK_WIDTH = 10  # Header's (empty) clock space on the right


class TitleBar(Widget):
    """Icon, then the screen's title and sub-title centred, like `textual.widgets.Header`."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        background: $panel;
        color: $foreground;
        height: 1;
    }
    """

    def on_mount(self) -> None:
        for node in (self.app, self.screen):
            self.watch(node, "title", self._title_changed, init=False)
            self.watch(node, "sub_title", self._title_changed, init=False)

    def _title_changed(self) -> None:
        self.refresh()

    def render(self) -> RenderResult:
        screen = self.screen
        title = screen.title if screen.title is not None else self.app.title
        sub_title = screen.sub_title if screen.sub_title is not None else self.app.sub_title
        text = self.app.format_title(title, sub_title)
        middle = max(0, self.size.width - ICON_WIDTH - CLOCK_WIDTH)
        if text.cell_length > middle:
            text = text.truncate(middle, ellipsis=True)
        left = (middle - text.cell_length) // 2
        icon = f" {ICON}".ljust(ICON_WIDTH)[:ICON_WIDTH]
        return Content.assemble(
            icon, " " * left, text, " " * (middle - left - text.cell_length), " " * CLOCK_WIDTH
        )

    async def on_click(self, event: Click) -> None:
        if event.x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            await self.run_action("app.command_palette")
