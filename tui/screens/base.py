"""What every MemoryRush screen shares: the services handle and the one error path (a service
call's `reporting` block here; a worker's failure is the app's to report: tui/runner.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from core.services.commands.curation import Edit
from tui import runner
from tui.navigation import navigator
from tui.reporting import Reporting
from tui.safe import notify

if TYPE_CHECKING:
    from core.domain import SourceParagraph, StoredUnit, ValidationReport  # (annotations only)
    from core.services.bootstrap import Services
    from core.services.commands import Command
    from core.services.curation import Edited
    from tui.widgets.paragraph_view import Fetch

T = TypeVar("T")


class Host(Protocol):
    """What a screen reads of the app it runs in (attributes down; it asks with messages,
    tui/messages.py, and never calls the app; it opens screens itself, with push_screen)."""

    services: Services
    first_frame_shown: bool


class BaseScreen(Screen[None]):
    """A full screen of the app. `escape` goes back; `HELP_NAME` titles its Help section."""

    HELP_NAME = "Screen"
    BINDINGS = [Binding("escape", "back", "Back", id="screen.back")]

    @property
    def host(self) -> Host:
        return cast("Host", self.app)

    @property
    def services(self) -> Services:
        return self.host.services

    def reporting(self, what: str) -> Reporting:
        """`with self.reporting("saving the answer"):` around every service call: a known error
        becomes a notice naming `what`, the block stops, the screen keeps running."""
        return Reporting(self.app, what)

    def paragraph_pages(self, article_id: int) -> Fetch:
        """How a ParagraphView reads this article: a page of paragraphs at a time; a failed
        read is reported and shows as no paragraphs."""

        def fetch(start: int, limit: int) -> list[SourceParagraph]:
            with self.reporting("reading the article"):
                return self.services.library.paragraphs(article_id, start, limit)
            return []

        return fetch

    def open_article(
        self, article_id: int, *, unit_id: int | None = None, paragraph: int | None = None
    ) -> None:
        """The evidence browser on an article (at a unit, or a paragraph index), on top now: the
        next key runs against it, never against this screen (tui/typed_on.py). A message to the
        app would arrive after that key."""
        navigator(self.app).open_article(article_id, unit_id=unit_id, paragraph=paragraph)

    def edit_unit(self, unit: StoredUnit, *, with_errors: str) -> None:
        """The edit form over `unit`: curation checks each try (a read, here); the edit is saved
        by the Edit command in a worker (saying `with_errors` when it still has validation
        errors); then `unit_edited` runs."""
        from tui.modals.edit_unit import EditUnitModal, UnitEdit  # (a form's widgets: not at start-up)

        def check(edit: UnitEdit) -> ValidationReport | None:
            with self.reporting("checking the edit"):
                return self.services.curation.validate_edit(
                    unit,
                    content=edit.content,
                    memory_type=edit.memory_type,
                    tags=edit.tags,
                    questions=edit.questions,
                )
            return None  # could not check: the form stays open

        def done(edit: UnitEdit | None) -> None:
            if edit is not None:
                command = Edit(unit.id, edit.content, edit.memory_type, edit.tags, edit.questions)
                saved = partial(self.EditSaved, unit.id, with_errors)
                self.write(command, saved, failed=lambda _: self.edit_not_saved(unit.id))

        self.app.push_screen(EditUnitModal(unit, check), done)

    @dataclass
    class EditSaved(Message):
        """The edit form's unit was saved (`result`: its report, whether its questions were
        asked again). Handled by `on_base_screen_edit_saved`."""

        unit_id: int
        with_errors: str
        result: Edited

    def on_base_screen_edit_saved(self, message: EditSaved) -> None:
        edited = message.result
        again = " (its questions now ask about the new content)" if edited.reasked else ""
        notify(self.app, ("Edit saved" if edited.report.ok else message.with_errors) + again)
        self.unit_edited(message.unit_id)

    def write(
        self, command: Command[T], done: Callable[[T], Message], *, failed: Callable[[Exception], None]
    ) -> None:
        """A change asked for here, as a command in a worker (tui/runner.py); `done(result)`
        comes back as a message, a failure is reported by the app and then `failed(error)`. A
        screen whose keys must wait for it overrides this (Triage)."""
        runner.run(self, command, done, failed=failed)

    def edit_not_saved(self, unit_id: int) -> None:
        """The edit was not saved (the app's notice says why): the unit as it is stored."""
        self.unit_edited(unit_id)

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
