"""Triage's keys that fix a proposal in one step (issue 16): `b` the card writer's next blank,
`S` split in two, `E` the selection as its evidence, `!` keep words the quote contradicts or does
not back, with a reason.

The card writer's steps (b, S) read the whole article the first time (its word counts: seconds
on a very long one), so they run in workers (tui/runner.py) whose result is `Fixed`; every step is a curation
event, so `u` takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from textual.message import Message

from core.domain import StoredUnit, ValidationReport
from tui import runner
from tui.modals.reason import ReasonModal
from tui.safe import notify
from tui.screens.own_cards import MakesCards
from tui.widgets.paragraph_view import ParagraphView


class FixesProposals(MakesCards):
    """The fixing keys of the Triage screen (the unit shown is `unit`)."""

    unit: StoredUnit | None = None
    article_id: int | None = None

    @dataclass
    class Fixed(Message):
        """A fix was saved. Handled by `on_fixes_proposals_fixed` (the unit is shown again)."""

        unit_id: int
        said: str

    def show_next(self, prefer: int | None = None) -> None:
        """Show the unit `prefer` (or the next one of the queue)."""

    def on_fixes_proposals_fixed(self, message: Fixed) -> None:
        notify(self.app, message.said)
        self.show_next(prefer=message.unit_id)

    def action_next_blank(self) -> None:
        if self.unit is not None:
            self._next_blank(self.unit.id)

    def _next_blank(self, unit_id: int) -> None:
        def fixed(report: ValidationReport) -> FixesProposals.Fixed:
            said = "Next blank (u undoes)" if report.ok else "Next blank: it has validation errors"
            return self.Fixed(unit_id, said)

        blank = partial(self.services.authoring.next_blank, unit_id)
        runner.start(self, "choosing the next blank", blank, fixed, group="fix")

    def action_split(self) -> None:
        if self.unit is not None:
            self._split(self.unit.id)

    def _split(self, unit_id: int) -> None:
        said = "Split in two: this is the first part, the second is next (u undoes)"
        split = partial(self.services.authoring.split, unit_id)
        runner.start(self, "splitting the unit", split, lambda _: self.Fixed(unit_id, said), group="fix")

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
        first = next((i for i in unit.issues if i.keepable and not i.kept), None) if unit else None
        if unit is None or first is None:
            return

        def done(reason: str | None) -> None:
            if not reason:
                return
            with self.reporting("keeping the unit"):
                if self.services.curation.keep_anyway(unit.id, reason):
                    notify(self.app, "Kept with your reason: it can be accepted now (u undoes)")
            self.show_next(prefer=unit.id)

        question = (
            "Keep it anyway? Why is the quote's fact not what it says:"
            if first.code.startswith("claim_contradicts_")
            else "Keep it anyway? Why keep words its quotes do not back:"
        )
        self.app.push_screen(ReasonModal(question, first.message), done)

    def card_article(self) -> int | None:
        return self.unit.article_id if self.unit is not None else self.article_id

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        self.refresh_bindings()
