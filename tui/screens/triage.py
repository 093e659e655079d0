"""Triage: one proposed unit at a time beside its evidence; accept, reject, edit, skip, undo.

Units with validation errors cannot be accepted (the key is disabled) until an edit fixes them;
a contradiction between the words and the quote may instead be kept with a reason (!).
Fixing fast: b gives the cloze the card writer's next blank, S splits the unit in two, E makes
the selection in the evidence view (v, then grow it) its evidence, and e edits every question;
c / n on a selection make a card of yours. u undoes each step (accept all valid: the batch).
`c` switches to the units whose source changed (re-import, sync) and whose quote is gone: each
is kept as it is (K) or retired to the trash (X); `u` undoes either.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from core.domain import StoredUnit, ValidationReport
from core.text.words import plural
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.modals.reason import ReasonModal
from tui.safe import content, notify
from tui.screens.own_cards import MakesCards
from tui.widgets.key_bar import KeyBar
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.title_bar import TitleBar
from tui.widgets.unit_view import unit_details

CHANGED_STATUSES = ["proposed", "confirmed", "rejected"]  # a retired (trashed) one is decided
FIXES = {"next_blank", "split", "evidence"}


class TriageScreen(MakesCards):
    """The proposal queue (of one article, or of the whole library)."""

    HELP_NAME = "Triage"
    AUTO_FOCUS = "#triage-evidence"  # the evidence view: select in it (v), its keys act on the unit
    BINDINGS = [
        Binding("a", "accept", "Accept", id="triage.accept"),
        Binding("r", "reject", "Reject", id="triage.reject"),
        Binding("e", "edit", "Edit", id="triage.edit"),
        Binding("s", "skip", "Skip", id="triage.skip"),
        Binding("u", "undo", "Undo", id="triage.undo"),
        Binding("A", "accept_all", "Accept all valid", id="triage.accept_all"),
        Binding("l", "low_confidence", "Low-confidence list", id="triage.low"),
        Binding("c", "source_changed", "Source-changed list", id="triage.changed"),
        Binding("K", "keep", "Keep (source changed)", id="triage.keep"),
        Binding("X", "retire", "Retire (source changed)", id="triage.retire"),
        Binding("o", "open_article", "Open article", id="triage.open"),
        Binding("b", "next_blank", "Next blank", id="triage.next_blank"),
        Binding("S", "split", "Split", id="triage.split"),
        Binding("E", "evidence", "Evidence = selection", id="triage.evidence"),
        Binding("exclamation_mark", "keep_anyway", "Keep anyway", id="triage.keep_anyway"),
    ]

    def __init__(self, article_id: int | None = None) -> None:
        super().__init__()
        self.article_id = article_id
        self.unit: StoredUnit | None = None
        self.skipped: list[int] = []
        self.low_confidence = False
        self.source_changed = False  # the list of units whose source changed, any status
        self.changed_waiting = 0  # how many wait for keep/retire (`c` is offered only then)

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

    def _queued(self, limit: int) -> list[StoredUnit]:
        """The next units of the list shown: proposals (or low-confidence ones), or the units
        whose source changed (proposed, confirmed or rejected)."""
        if self.source_changed:
            batch = self.attempt(
                "loading source-changed units",
                self.services.library.units,
                self.article_id,
                CHANGED_STATUSES,
                limit=limit,
                source_changed=True,
            )
        else:
            batch = self.attempt("loading proposals", self._proposals, limit)
        return batch or []

    def _belongs(self, unit: StoredUnit) -> bool:
        if self.source_changed:
            return unit.source_changed and unit.status in CHANGED_STATUSES
        return unit.status == "proposed"

    def show_next(self, prefer: int | None = None) -> None:
        unit = self.services.library.unit(prefer) if prefer is not None else None
        if unit is None or not self._belongs(unit):
            unit = next((u for u in self._queued(len(self.skipped) + 1) if u.id not in self.skipped), None)
        if unit is None and self.skipped:
            self.skipped.clear()  # start over with the skipped ones
            batch = self._queued(1)
            unit = batch[0] if batch else None
        self.unit = unit
        self.changed_waiting = (
            self.attempt(
                "counting source-changed units", self.services.library.unit_count, source_changed=True
            )
            or 0
        )
        self._paint()
        self.refresh_bindings()

    def _proposals(self, limit: int) -> list[StoredUnit]:
        """The queue: proposals in reading order without those parked below the confidence
        floor; or, as the low-confidence list, every proposal least confident first (the
        parked ones lead it), so the list is never empty while proposals wait."""
        low = self.low_confidence
        return self.services.library.units(
            self.article_id, ["proposed"], None, None if low else False, limit, least_confident_first=low
        )

    def _paint(self) -> None:
        card = self.query_one("#triage-unit", Static)
        progress = self.query_one("#triage-progress", Static)
        view = self.query_one(ParagraphView)
        queue = (
            "source-changed list (c: proposals)"
            if self.source_changed
            else "low-confidence list, least confident first (l: all)"
            if self.low_confidence
            else "proposals"
        )
        if self.unit is None:
            self._paint_empty(progress, card)
            view.load(0, lambda s, n: [])
            return
        unit = self.unit
        article = self.services.library.article(unit.article_id)
        title = article.title if article else "?"
        progress.update(
            Content.assemble(
                (self._waiting(article.proposed if article else 0), "bold"),
                "  ·  ",
                queue,
                "  ·  ",
                content(title, single_line=True),
            )
        )
        card.update(unit_details(unit))
        if article is not None:
            quotes: dict[str, list[str]] = {}
            for e in unit.evidence:
                quotes.setdefault(e.paragraph_id, []).append(e.quote)
            first = (
                self.services.library.paragraph(unit.article_id, unit.evidence[0].paragraph_id)
                if unit.evidence
                else None
            )
            library, article_id = self.services.library, unit.article_id
            view.load(
                article.paragraph_count,
                lambda start, limit: library.paragraphs(article_id, start, limit),
                first.index if first else 0,
            )
            view.set_evidence(quotes)
            view.go_to(first.index if first else 0, top=True)
            view.border_title = content(title, single_line=True)

    def _paint_empty(self, progress: Static, card: Static) -> None:
        """Nothing left in the list shown: say so, and where the rest waits."""
        if self.source_changed:
            progress.update(Content.styled("No units with a changed source waiting.", "bold $success"))
            card.update(Content("Press c to go back to the proposals."))
            return
        parked = not self.low_confidence and self.services.library.units(
            self.article_id, ["proposed"], None, True, 1
        )
        changed = " Press c for the units whose source changed." if self.changed_waiting else ""
        if parked:
            progress.update(Content.styled("No proposals above the confidence floor.", "bold"))
            card.update(Content("The others wait in the low-confidence list: press l to see them." + changed))
        else:
            progress.update(Content.styled("No proposals waiting.", "bold $success"))
            card.update(Content("Import articles (i on Home) to get new proposals." + changed))

    def _waiting(self, in_article: int) -> str:
        """ "N proposals waiting" (in this article, or in the library), or the changed ones."""
        if self.source_changed:
            return f"{plural(self.changed_waiting, 'unit')} with a changed source waiting"
        waiting = in_article if self.article_id else self.services.library.unit_count("proposed")
        return f"{plural(waiting, 'proposal')} waiting"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"accept", "reject", "edit", "skip", "open_article", *FIXES} and self.unit is None:
            return None
        if action == "evidence":
            return bool(self.query_one(ParagraphView).selection)
        if action == "keep_anyway":
            return self.unit is not None and any(i.keepable and not i.kept for i in self.unit.issues)
        # hidden (False), not greyed, while nothing's source changed: the footer has no room
        if action == "source_changed":
            return bool(self.source_changed or self.changed_waiting)
        if action in {"keep", "retire"}:
            return self.unit is not None and self.unit.source_changed
        if action in {"accept", "reject"} and self.unit is not None and self.unit.status != "proposed":
            return None  # a confirmed unit in the source-changed list: keep or retire it
        if action == "accept" and self.unit is not None and not self.unit.acceptable:
            return None  # shown disabled: fix the errors first
        if action == "accept_all" and self.article_id is None and self.unit is None:
            return None
        return True

    def why_not(self, action: str) -> str | None:
        if self.unit is None:
            return "No proposal on screen: import articles (i on Home), or l for the low-confidence list"
        if action == "accept":
            return "This unit has validation errors: edit it (e) to fix them, then accept"
        if action == "evidence":
            return "Select the evidence in the article first: v, then grow it (shift+right, ), })"
        return None

    # --- actions --------------------------------------------------------------------------

    def action_accept(self) -> None:
        if self.unit is None:
            return
        if self.attempt("accepting", self.services.curation.accept, self.unit.id):
            notify(self.app, "Accepted: its questions become cards")
        self.show_next()

    def action_reject(self) -> None:
        if self.unit is not None and self.attempt("rejecting", self.services.curation.reject, self.unit.id):
            notify(self.app, "Rejected")
        self.show_next()

    def action_skip(self) -> None:
        if self.unit is not None:
            self.skipped.append(self.unit.id)
        self.show_next()

    # --- fixing a proposal fast -----------------------------------------------------------

    def action_next_blank(self) -> None:
        if self.unit is None:
            return
        unit = self.unit
        with self.reporting("choosing the next blank"):
            report = self.services.authoring.next_blank(unit.id)
            notify(self.app, "Next blank" if report.ok else "Next blank: it has validation errors")
        self.show_next(prefer=unit.id)

    def action_split(self) -> None:
        if self.unit is None:
            return
        unit = self.unit
        with self.reporting("splitting the unit"):
            self.services.authoring.split(unit.id)
            notify(self.app, "Split in two: this is the first part, the second is next (u undoes)")
        self.show_next(prefer=unit.id)

    def action_evidence(self) -> None:
        view = self.query_one(ParagraphView)
        if self.unit is None or not view.selection:
            return
        unit = self.unit
        with self.reporting("changing the evidence"):
            report = self.services.authoring.set_evidence(unit.id, view.selected_spans())
            notify(
                self.app, "Evidence changed" if report.ok else "Evidence changed: it has validation errors"
            )
        self.show_next(prefer=unit.id)

    def action_keep_anyway(self) -> None:
        unit = self.unit
        if unit is None:
            return
        first = next((i for i in unit.issues if i.keepable and not i.kept), None)
        if first is None:
            return

        def done(reason: str | None) -> None:
            if not reason:
                return
            with self.reporting("keeping the unit"):
                if self.services.curation.keep_anyway(unit.id, reason):
                    notify(self.app, "Kept with your reason: it can be accepted now (u undoes)")
            self.show_next(prefer=unit.id)

        self.app.push_screen(
            ReasonModal("Keep it anyway? Why is the quote's fact not what it says:", first.message), done
        )

    def card_article(self) -> int | None:
        return self.unit.article_id if self.unit is not None else self.article_id

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        self.refresh_bindings()

    def action_undo(self) -> None:
        undone = self.attempt("undoing", self.services.curation.undo, self.article_id)
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
        count = self.attempt("accepting all valid units", self.services.curation.accept_all_valid, article_id)
        notify(self.app, f"Accepted {plural(count or 0, 'valid unit')} of this article")
        self.show_next()

    def action_low_confidence(self) -> None:
        self.low_confidence = not self.low_confidence
        self.source_changed = False
        self.skipped.clear()
        self.show_next()

    def action_source_changed(self) -> None:
        self.source_changed = not self.source_changed
        self.low_confidence = False
        self.skipped.clear()
        self.show_next()

    def action_keep(self) -> None:
        if self.unit is not None and self.attempt(
            "keeping the unit", self.services.curation.keep, self.unit.id
        ):
            notify(self.app, "Kept as it is: its quote stays as history of the earlier text (u undoes)")
        self.show_next()

    def action_retire(self) -> None:
        if self.unit is not None and self.attempt(
            "retiring the unit", self.services.curation.retire, self.unit.id
        ):
            notify(self.app, "Retired to the trash: its cards leave review (u undoes)")
        self.show_next()

    def action_open_article(self) -> None:
        if self.unit is not None:
            self.mr_app.open_article(self.unit.article_id, unit_id=self.unit.id)

    def action_edit(self) -> None:
        unit = self.unit
        if unit is None:
            return

        def check(edit: UnitEdit) -> ValidationReport:
            return self.services.curation.validate_edit(
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
                self.services.curation.edit,
                unit.id,
                content=edit.content,
                memory_type=edit.memory_type,
                tags=edit.tags,
                questions=edit.questions,
            )
            if report is not None:
                notify(
                    self.app,
                    "Edit saved" if report.ok else "Edit saved with validation errors: fix before accepting",
                )
            self.show_next(prefer=unit.id)

        self.app.push_screen(EditUnitModal(unit, check), done)
