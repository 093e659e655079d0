"""What every MemoryRush screen shares: the services handle and the one error path."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.binding import Binding
from textual.screen import Screen

from tui.reporting import Reporting

if TYPE_CHECKING:
    from core.services.bootstrap import Services
    from tui.app import MemoryRushApp

T = TypeVar("T")


class BaseScreen(Screen[None]):
    """A full screen of the app. `escape` goes back; `HELP_NAME` titles its Help section."""

    HELP_NAME = "Screen"
    BINDINGS = [Binding("escape", "back", "Back", id="screen.back")]

    @property
    def mr_app(self) -> MemoryRushApp:
        return self.app  # type: ignore[return-value]

    @property
    def services(self) -> Services:
        return self.mr_app.services

    def reporting(self, what: str) -> Reporting:
        """`with self.reporting("saving the card"):` around a service call: a known error
        becomes a notice naming `what`, the block stops, the screen keeps running."""
        return Reporting(self.app, what)

    def attempt(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """Call a service; a known error becomes a notice (handled in the app, one place)."""
        return self.mr_app.attempt(what, fn, *args, **kwargs)

    def on_mount(self) -> None:
        self.sub_title = self.HELP_NAME

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    def refresh_data(self) -> None:
        """Reload what this screen shows from the services (after another screen changed it)."""

    def on_screen_resume(self) -> None:
        self.refresh_data()

    # --- keys that cannot act now ---------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        """Why `action` (its name, as in check_action) cannot run now (its key is shown dimmed);
        None: the generic sentence."""
        return None

    def explain_disabled(self, action: str, description: str) -> None:
        """A key that cannot act says why, rather than nothing."""
        from tui.safe import notify

        name = action.partition("(")[0]  # "rate(3)" -> "rate"
        notify(self.app, self.why_not(name) or f"{description}: not available here now", severity="warning")

    def on_key(self, event: events.Key) -> None:
        # Keys reach the screen before the app runs the bindings: a binding of this screen that
        # check_action disables (shown dimmed) would otherwise swallow the key without a word.
        active = self.active_bindings.get(event.key)
        if active is not None and not active.enabled and active.node is self:
            event.stop()
            self.explain_disabled(active.binding.action, active.binding.description)
