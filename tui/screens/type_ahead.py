"""Type-ahead: the keys of a screen's queue pressed while its change is on its way wait their turn.

Every change is a command run on the writer thread (tui/runner.py), so a rating or an accept is
saved a few milliseconds after its key, not before the next key is read as when the UI thread
wrote it. A reader who knows the next step (space 3 space 3, or r held down in Triage) would lose
those keys, or see "not available" for them. Here they are kept in order and each runs once the
change before it is shown, on what is on screen then, as if the save had been instant. A change
that fails drops them (they were meant for what did not happen); a dialog put on top takes none.

Triage and Review compose one (`self.ahead = TypeAhead(self, WAIT_FOR_SAVE)`), call `holds`
from `on_key`, `started` as a change is sent and `shown` / `failed` from its message's handler.
"""

from __future__ import annotations

from collections.abc import Collection

from textual import events
from textual.screen import Screen


class TypeAhead:
    """The keys of `actions` pressed on `screen` while `saving`, run in their turn."""

    def __init__(self, screen: Screen[object], actions: Collection[str]) -> None:
        self.screen = screen
        self.actions = actions
        self.saving = False  # a change made on the screen is on its way
        self.waiting: list[str] = []  # the actions of the keys pressed meanwhile

    def holds(self, event: events.Key) -> bool:
        """Keep `event` for later (True) when it is one of the queue's keys pressed while a
        change is on its way, or while keys before it still wait."""
        if not (self.saving or self.waiting):
            return False
        active = self.screen.active_bindings.get(event.key)
        if (
            active is None
            or active.node is not self.screen
            or self._name(active.binding.action) not in self.actions
        ):
            return False
        event.stop()
        event.prevent_default()  # (not BaseScreen's "not available now")
        self.waiting.append(active.binding.action)
        return True

    def started(self) -> None:
        self.saving = True

    def shown(self) -> None:
        """The change is saved and its outcome shown: the next waiting key, if any."""
        self.saving = False
        self._go_on()

    def failed(self) -> None:
        """The change was not saved: the keys pressed meanwhile go."""
        self.saving = False
        self.waiting.clear()

    def _go_on(self) -> None:
        if not self.screen.is_current:  # a dialog on top: the keys were meant for the screen
            self.waiting.clear()
        elif self.waiting and not self.saving:
            self.screen.call_later(self._run, self.waiting.pop(0))

    async def _run(self, action: str) -> None:
        await self.screen.run_action(action)
        if not self.saving:  # it changed nothing (skip, a list switched, a key not available)
            self._go_on()

    @staticmethod
    def _name(action: str) -> str:
        """`rate(3)` -> `rate`."""
        return action.split("(", 1)[0]
