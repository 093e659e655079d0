"""The key line at the bottom of every screen: Textual's compact Footer look, as one widget.

Textual's Footer mounts a widget per key (a dozen on most screens), styles each, and mounts them
all again whenever the screen's bindings change (a reveal in Review, a focus change); on a
screen's first frame that is a good part of the work. This paints the same line from one widget:
each shown binding as its key (bold) and description, disabled ones dimmed, the command palette
key at the right edge. A key that does not fit the width is left out whole, never cut. Clicking a key presses it, as the Footer's keys do (a dimmed one then
says why it cannot act).
"""

from __future__ import annotations

from typing import NamedTuple

from textual.app import RenderResult
from textual.content import Content
from textual.events import Click, Leave, MouseMove
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual, visualize
from textual.widget import Widget

PALETTE_EDGE = "▏"  # the Footer's `border-left: vkey` before the palette key


class _Key(NamedTuple):  # (a NamedTuple: a frozen dataclass cost 3.5M instructions to build at start-up)
    key: str
    display: str
    description: str
    enabled: bool
    start: int = 0  # first cell on the line
    width: int = 0


class KeyBar(Widget):
    """Every binding the screen shows, like `textual.widgets.Footer(compact=True)`."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description", "key-bar--edge", "key-bar--hover"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    KeyBar > .key-bar--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeyBar > .key-bar--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeyBar > .key-bar--edge {
        color: $foreground 20%;
    }
    KeyBar > .key-bar--hover {
        color: $footer-key-foreground;
        background: $block-hover-background;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._keys: list[_Key] = []
        self._hover: str | None = None  # the key under the mouse
        self._lines: dict[tuple[object, ...], tuple[Strip, list[_Key]]] = {}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        self.refresh()

    def _shown(self) -> tuple[list[_Key], _Key | None]:
        """The shown bindings (one per action, first key wins, as the Footer does) and the palette key."""
        active = self.screen.active_bindings
        keys: dict[str, _Key] = {}
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in keys:
                display = self.app.get_key_display(binding)
                keys[binding.action] = _Key(binding.key, display, binding.description, enabled)
        palette = None
        if self.app.ENABLE_COMMAND_PALETTE and self.app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[self.app.COMMAND_PALETTE_BINDING]
            palette = _Key(binding.key, self.app.get_key_display(binding), binding.description, enabled)
        return list(keys.values()), palette

    def _item(self, item: _Key, hovered: bool) -> Content:
        key_style = self.get_visual_style("key-bar--key")
        description_style = self.get_visual_style("key-bar--description")
        if hovered:
            hover = self.get_visual_style("key-bar--hover")
            key_style, description_style = key_style + hover, description_style + hover
        if not item.enabled:
            dim = Style(dim=True)
            key_style, description_style = key_style + dim, description_style + dim
        if not item.description:
            return Content.styled(item.display, key_style)
        return Content.assemble((item.display, key_style), (f" {item.description}", description_style))

    def render(self) -> RenderResult:
        keys, palette = self._shown()
        width = self.size.width
        tail = Content("")
        if palette is not None:
            tail = Content.assemble(
                (PALETTE_EDGE, self.get_visual_style("key-bar--edge")),
                self._item(palette, self._hover == palette.key),
                " ",
            )
        room = max(0, width - tail.cell_length)
        parts: list[Content] = []
        placed: list[_Key] = []
        used = 0
        for item in keys:
            piece = self._item(item, self._hover == item.key)
            if used + piece.cell_length > room:  # a key cut in half ("v Sele") is no key: the
                break  # ones that do not fit are left out whole (they are in ? help and the palette)
            placed.append(
                _Key(item.key, item.display, item.description, item.enabled, used, piece.cell_length)
            )
            parts.append(piece + " ")
            used += piece.cell_length + 1
        line = Content("").join(parts)
        if line.cell_length > room:
            line = line.truncate(room)
        gap = room - line.cell_length
        if palette is not None:
            start = room + len(PALETTE_EDGE)
            placed.append(
                _Key(
                    palette.key,
                    palette.display,
                    palette.description,
                    palette.enabled,
                    start,
                    tail.cell_length - 2,
                )
            )
        self._keys = placed
        return Content.assemble(line, " " * gap, tail)

    def render_line(self, y: int) -> Strip:
        """The line, kept by what it shows: a bindings change often brings back a line drawn
        before (a selection starting, then ending with a card's save), and drawing it again
        was a quarter of the paint after the save (bench/bench_tui.py)."""
        keys, palette = self._shown()
        key = (tuple(keys), palette, self._hover, self.size.width, self.visual_style)
        kept = self._lines.get(key)
        if kept is None:  # drawn as Widget draws its render(), one line high
            width = self.size.width
            strips = Visual.to_strips(self, visualize(self, self.render()), width, 1, self.visual_style)
            line = strips[0] if strips else Strip.blank(width, self.visual_style.rich_style)
            if len(self._lines) > 16:
                self._lines.clear()
            kept = self._lines[key] = (line, self._keys)
        self._keys = kept[1]
        return kept[0]

    def _key_at(self, x: int) -> _Key | None:
        for item in self._keys:
            if item.start <= x < item.start + item.width:
                return item
        return None

    def on_mouse_move(self, event: MouseMove) -> None:
        item = self._key_at(event.x)
        hover = item.key if item is not None else None
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, event: Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_click(self, event: Click) -> None:
        item = self._key_at(event.x)
        if item is None:
            return
        event.stop()
        # as if pressed: a dimmed key's screen says why it cannot act now (BaseScreen.on_key)
        self.app.simulate_key(item.key)
