"""What every MemoryRush screen shares: the services handle and the one error path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker

from tui.navigation import navigator
from tui.reporting import Reporting, report_worker
from tui.safe import notify

if TYPE_CHECKING:
    from core.domain import SourceParagraph, StoredUnit, ValidationReport  # (annotations only)
    from core.services.bootstrap import Services
    from tui.widgets.paragraph_view import Fetch


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
        """The edit form over `unit`: curation checks each try and saves the edit (saying
        `with_errors` when it still has validation errors); then `unit_edited` runs."""
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
            if edit is None:
                return
            with self.reporting("saving the edit"):
                report = self.services.curation.edit(
                    unit.id,
                    content=edit.content,
                    memory_type=edit.memory_type,
                    tags=edit.tags,
                    questions=edit.questions,
                )
                saved = self.services.library.unit(unit.id)
                asked = [(q.question, q.expected_answer, q.kind) for q in saved.questions] if saved else []
                again = (
                    " (its questions now ask about the new content)" if asked != list(edit.questions) else ""
                )
                notify(self.app, ("Edit saved" if report.ok else with_errors) + again)
            self.unit_edited(unit.id)

        self.app.push_screen(EditUnitModal(unit, check), done)

    def unit_edited(self, unit_id: int) -> None:
        """After the edit form closed with an edit (saved, or refused with a notice)."""

    def on_mount(self) -> None:
        self.sub_title = self.HELP_NAME

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Every screen's thread workers: a failed one is reported under its name (a subclass's
        own handler runs as well: Textual calls each class's handler)."""
        report_worker(self.app, event)

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
