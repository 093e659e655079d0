"""A modal is dismissed once, whatever arrives after: the one guard of every modal, the palette's
included.

Textual's `Screen.dismiss` pops whatever screen is on top. A second dismiss of the same modal,
by a double click on the palette's backdrop or an Enter held down over a list (both queue
their events before the first pop is seen), popped the screen beneath it too: Home went, then
`ScreenStackError` ended the app with exit 1; a Browse move ran its callback twice. So every
modal of ours is a `Modal` and the palette a `Palette`: a dismiss of a screen that is not the one
on top, or that was dismissed already, does nothing, and the input events and widget messages
that reach such a screen (its own Input's Submitted, a list's OptionSelected, a click) are
dropped instead of acting for it.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar
from weakref import WeakSet

from textual import events
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.message import Message
from textual.screen import ModalScreen, Screen

ResultT = TypeVar("ResultT")
_DISMISSED: WeakSet[Screen[Any]] = WeakSet()


async def _nothing() -> None:
    return None


def first_dismiss(screen: Screen[Any]) -> bool:
    """True once: for the first dismiss of `screen` while it is on top. Later calls are dropped."""
    if screen in _DISMISSED or not screen.is_active:
        return False
    _DISMISSED.add(screen)
    return True


def dropped() -> AwaitComplete:
    """What a dropped dismiss returns: awaitable like Textual's, and done at once."""
    return AwaitComplete(_nothing())


# Where the messages of widgets come from (an Input's Submitted, a list's OptionSelected, ours):
# dropped when they reach a dismissed screen. Textual's own (textual.messages, textual.events:
# prune, layout, callbacks) pass: they take the screen down.
_WIDGET_MESSAGES = ("textual.widgets.", "textual.command", "tui.")


def gone(screen: Screen[Any], message: Message) -> bool:
    """A message that reaches a dismissed screen and is dropped: input (keys, clicks) and the
    messages of its widgets."""
    if screen not in _DISMISSED:
        return False
    return isinstance(message, events.InputEvent) or type(message).__module__.startswith(_WIDGET_MESSAGES)


class Modal(ModalScreen[ResultT]):
    """Every modal of ours: dismissed once (module docstring)."""

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        if not first_dismiss(self):
            return dropped()
        return super().dismiss(result)

    def check_message_enabled(self, message: Message) -> bool:
        return not gone(self, message) and super().check_message_enabled(message)


class Palette(CommandPalette):
    """Textual's command palette, dismissed once (module docstring). Page down and page up
    survive a list whose options were just replaced: Textual 8.2's OptionList pages through a
    line map that is empty until the new options are laid out (KeyError: 0, exit 1, after
    page down, a letter, page up at once); then they go to the last or first command."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    def action_page(self, direction: int) -> None:
        for commands in self.query(CommandList).results(CommandList):  # none once it is closing
            try:
                commands.action_page_down() if direction > 0 else commands.action_page_up()
            except (KeyError, IndexError):
                commands.action_last() if direction > 0 else commands.action_first()

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not first_dismiss(self):
            return dropped()
        return super().dismiss(result)

    def check_message_enabled(self, message: Message) -> bool:
        return not gone(self, message) and super().check_message_enabled(message)
