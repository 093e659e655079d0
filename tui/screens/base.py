"""What every MemoryRush screen shares: the services handle and the one error path."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual.binding import Binding
from textual.screen import Screen

from core.domain import StoredUnit, ValidationReport
from tui.safe import notify

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

    def attempt(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """Call a service; a known error becomes a notice (handled in the app, one place)."""
        return self.mr_app.attempt(what, fn, *args, **kwargs)

    def edit_unit(self, unit: StoredUnit, *, with_errors: str) -> None:
        """The edit form over `unit`: curation checks each try and saves the edit (saying
        `with_errors` when it still has validation errors); then `unit_edited` runs."""
        from tui.modals.edit_unit import EditUnitModal, UnitEdit  # (a form's widgets: not at start-up)

        curation = self.services.curation

        def check(edit: UnitEdit) -> ValidationReport:
            return curation.validate_edit(
                unit,
                content=edit.content,
                memory_type=edit.memory_type,
                tags=edit.tags,
                questions=edit.questions,
            )

        def done(edit: UnitEdit | None) -> None:
            if edit is None:
                return
            report = self.attempt(
                "saving the edit",
                curation.edit,
                unit.id,
                content=edit.content,
                memory_type=edit.memory_type,
                tags=edit.tags,
                questions=edit.questions,
            )
            if report is not None:
                notify(self.app, "Edit saved" if report.ok else with_errors)
            self.unit_edited(unit.id)

        self.app.push_screen(EditUnitModal(unit, check), done)

    def unit_edited(self, unit_id: int) -> None:
        """After the edit form closed with an edit (saved, or refused with a notice)."""

    def on_mount(self) -> None:
        self.sub_title = self.HELP_NAME

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    def refresh_data(self) -> None:
        """Reload what this screen shows from the services (after another screen changed it)."""

    def on_screen_resume(self) -> None:
        self.refresh_data()
