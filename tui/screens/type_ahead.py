"""Type-ahead: a screen's queue keys pressed while its change is on its way wait their turn.

Every change is a command run on the writer thread (tui/runner.py), so a rating or an accept is
saved a few milliseconds after its key, not before the next key is read as when the UI thread
wrote it. A reader who knows the next step (space 3 space 3, or a held down in Triage) would lose
those keys: Textual offers every key of a burst to the screen before the first one's action has
run, and then skips the actions its screen disables while saving. So the queue's actions stay
enabled (`check_action`: `ahead.busy`) and each is declared `@in_turn`: pressed while a change is
on its way, or while keys before it still wait, it is kept, in order, and run once the change
before it is shown, on what is on screen then, as if the save had been instant (its own
check_action decides then whether it can act). A change that fails drops the keys kept (they
were meant for what did not happen); a dialog put on top takes none of them.

Triage and Review compose one (`self.ahead = TypeAhead(self)`), send their changes through
its `write` and call `shown` / `failed` from the change's message handler.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textual import events
from textual.message import Message
from textual.screen import Screen

from tui import runner

if TYPE_CHECKING:
    from core.services.commands import Command


class HasTypeAhead(Protocol):
    ahead: TypeAhead


T = TypeVar("T")
Action = Callable[..., None]


class TypeAhead:
    """The `@in_turn` actions of `screen` asked while a change is on its way, run in their turn."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.saving = False  # a change made on the screen is on its way
        self.waiting: list[str] = []  # the actions kept meanwhile ("accept", "rate(3)")
        self._replaying = False  # a kept action is running: it acts, it is not kept again
        self._led = False  # a leading key reached the screen, its action not run yet (`behind`)

    @property
    def busy(self) -> bool:
        """An action asked now would be kept (its binding stays enabled for it)."""
        return (self.saving or bool(self.waiting)) and not self._replaying

    def keeps(self, action: str) -> bool:
        """Keep `action` for its turn (True) when the screen is busy."""
        if not self.busy:
            return False
        self.waiting.append(action)
        return True

    def behind(self, event: events.Key, actions: Collection[str], *, leads: Collection[str]) -> None:
        """From the screen's on_key. Textual offers every key of a burst (space 3 space 3, typed
        ahead) to the screen before the first one's action runs, and BaseScreen refuses with a
        word a key its screen disables now. Behind a key of `leads` on its way, a key of
        `actions` is not refused by what is shown now: its action decides when it runs."""
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.node is not self.screen:
            return
        name = active.binding.action.partition("(")[0]
        if self._led and name in actions:
            event.prevent_default()  # (BaseScreen's on_key: not run)
        elif name in leads and active.enabled:
            self._led = True

    def ran(self) -> None:
        """A leading key's action ran (a reveal): the keys after it are judged as usual."""
        self._led = False

    def write(
        self, command: Command[T], done: Callable[[T], Message], *, failed: Callable[[Exception], None]
    ) -> None:
        """The screen's change, run as a command (tui/runner.py); the queue's keys wait for it
        until the screen calls `shown` (or `failed` does)."""
        self.saving = True
        self._led = False
        runner.run(self.screen, command, done, failed=failed)

    def shown(self) -> None:
        """The change is saved and its outcome shown: the next kept action, if any."""
        self.saving = False
        self._go_on()

    def failed(self) -> None:
        """The change was not saved: the actions kept meanwhile go."""
        self.saving = False
        self.waiting.clear()

    def _go_on(self) -> None:
        if not self.screen.is_current:  # a dialog on top: the keys were meant for the screen
            self.waiting.clear()
        elif self.waiting and not self.saving:
            self.screen.call_later(self._run, self.waiting.pop(0))

    async def _run(self, action: str) -> None:
        self._replaying = True
        try:
            await self.screen.run_action(action)  # (its check_action decides on what is shown now)
        finally:
            self._replaying = False
        if not self.saving:  # it changed nothing (skip, a list switched, a key not available now)
            self._go_on()


def in_turn(action: Action) -> Action:
    """Declare a screen's action (`action_accept`, `action_rate`) one that waits its turn while
    a change is on its way (TypeAhead)."""
    name = action.__name__.removeprefix("action_")

    @wraps(action)
    def run(screen: HasTypeAhead, *params: object) -> None:
        asked = f"{name}({', '.join(map(repr, params))})" if params else name
        if not screen.ahead.keeps(asked):
            action(screen, *params)

    return run
