"""Triage: one proposed unit at a time beside its evidence; accept, reject, edit, skip, undo.

Units with validation errors cannot be accepted (the key is disabled) until an edit fixes them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from core.domain import StoredUnit
from tui.messages import OpenArticle
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.title_bar import TitleBar
from tui.widgets.unit_view import unit_details


class TriageScreen(BaseScreen):
    """The proposal queue (of one article, or of the whole library)."""

    HELP_NAME = "Triage"
    BINDINGS = [
        Binding("a", "accept", "Accept", id="triage.accept"),
        Binding("r", "reject", "Reject", id="triage.reject"),
        Binding("e", "edit", "Edit", id="triage.edit"),
        Binding("s", "skip", "Skip", id="triage.skip"),
        Binding("u", "undo", "Undo", id="triage.undo"),
        Binding("A", "accept_all", "Accept all valid", id="triage.accept_all"),
        Binding("l", "low_confidence", "Low-confidence list", id="triage.low"),
        Binding("o", "open_article", "Open article", id="triage.open"),
    ]

    def __init__(self, article_id: int | None = None) -> None:
        super().__init__()
        self.article_id = article_id
        self.unit: StoredUnit | None = None
        self.skipped: list[int] = []
        self.low_confidence = False

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="triage-body"):
            with VerticalScroll(id="triage-card"):
                yield Static(id="triage-progress")
                yield Static(id="triage-unit")
            yield ParagraphView(id="triage-evidence")
        yield KeyBar()

    def refresh_data(self) -> None:
        self.show_next()

    # --- the queue ------------------------------------------------------------------------

    def show_next(self, prefer: int | None = None) -> None:
        unit = None
        with self.reporting("loading proposals"):
            library = self.services.library
            unit = library.unit(prefer) if prefer is not None else None
            if unit is None or unit.status != "proposed":
                batch = library.units(
                    self.article_id, ["proposed"], None, self.low_confidence, len(self.skipped) + 1
                )
                unit = next((u for u in batch if u.id not in self.skipped), None)
            if unit is None and self.skipped:
                self.skipped.clear()  # start over with the skipped ones
                batch = library.units(self.article_id, ["proposed"], None, self.low_confidence, 1)
                unit = batch[0] if batch else None
        self.unit = unit
        self._paint()
        self.refresh_bindings()

    def _paint(self) -> None:
        card = self.query_one("#triage-unit", Static)
        progress = self.query_one("#triage-progress", Static)
        view = self.query_one(ParagraphView)
        queue = "low-confidence list" if self.low_confidence else "proposals"
        if self.unit is None:
            progress.update(Content.styled(f"No {queue} waiting.", "bold $success"))
            card.update(Content("Import articles (i on Home) or press l for the low-confidence list."))
            view.load(0, lambda s, n: [])
            return
        unit = self.unit
        article, waiting, first = None, 0, None
        with self.reporting("reading the proposal's article"):
            library = self.services.library
            article = library.article(unit.article_id)
            if self.article_id:
                waiting = article.proposed if article else 0
            else:
                waiting = library.unit_count("proposed")
            if article is not None and unit.evidence:
                first = library.paragraph(unit.article_id, unit.evidence[0].paragraph_id)
        title = article.title if article else "?"
        progress.update(
            Content.assemble(
                (f"{waiting} proposals waiting", "bold"),
                "  ·  ",
                queue,
                "  ·  ",
                content(title, single_line=True),
            )
        )
        card.update(unit_details(unit))
        if article is not None:
            view.load(
                article.paragraph_count, self.paragraph_pages(unit.article_id), first.index if first else 0
            )
            view.set_evidence(unit.quotes_by_paragraph())
            view.go_to(first.index if first else 0, top=True)
            view.border_title = content(title, single_line=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"accept", "reject", "edit", "skip", "open_article"} and self.unit is None:
            return None
        if action == "accept" and self.unit is not None and not self.unit.acceptable:
            return None  # shown disabled: fix the errors first
        if action == "accept_all" and self.article_id is None and self.unit is None:
            return None
        return True

    # --- actions --------------------------------------------------------------------------

    def action_accept(self) -> None:
        self._decide("accepting", "Accepted: its questions become cards", accept=True)

    def action_reject(self) -> None:
        self._decide("rejecting", "Rejected", accept=False)

    def _decide(self, what: str, done: str, *, accept: bool) -> None:
        """Accept or reject the unit shown, then show the next proposal."""
        if self.unit is not None:
            with self.reporting(what):
                curation = self.services.curation
                if (curation.accept if accept else curation.reject)(self.unit.id):
                    notify(self.app, done)
        self.show_next()

    def action_skip(self) -> None:
        if self.unit is not None:
            self.skipped.append(self.unit.id)
        self.show_next()

    def action_undo(self) -> None:
        with self.reporting("undoing"):
            undone = self.services.curation.undo(self.article_id)
            if undone is None:
                notify(self.app, "Nothing to undo")
                return
            notify(self.app, "Undone")
            if undone in self.skipped:
                self.skipped.remove(undone)
            self.show_next(prefer=undone)

    def action_accept_all(self) -> None:
        article_id = self.article_id or (self.unit.article_id if self.unit else None)
        if article_id is None:
            return
        with self.reporting("accepting all valid units"):
            count = self.services.curation.accept_all_valid(article_id)
            notify(self.app, f"Accepted {count} valid units of this article")
        self.show_next()

    def action_low_confidence(self) -> None:
        self.low_confidence = not self.low_confidence
        self.skipped.clear()
        self.show_next()

    def action_open_article(self) -> None:
        if self.unit is not None:
            self.post_message(OpenArticle(self.unit.article_id, unit_id=self.unit.id))

    def action_edit(self) -> None:
        if self.unit is not None:
            self.edit_unit(self.unit, with_errors="Edit saved with validation errors: fix before accepting")

    def unit_edited(self, unit_id: int) -> None:
        self.show_next(prefer=unit_id)
