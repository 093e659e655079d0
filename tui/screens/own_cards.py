"""What a screen with a paragraph view does with a selection: `c` makes a cloze of it, `n` opens
the form on a unit of it (core/services/authoring.py saves either: yours, confirmed, in
today's session). Article, Triage and Review are such screens; each says which article its
view shows (`card_article`) and what to show once a card is made (`card_made`).
"""

from __future__ import annotations

from core.domain import SelectedSpan
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.widgets.paragraph_view import ParagraphView

SAVED = "in today's session, new-card limits allowing (u undoes)"


class MakesCards(BaseScreen):
    """A screen whose paragraph view makes cards of yours from its selection."""

    def card_article(self) -> int | None:
        """The article the paragraph view shows."""
        return None

    def card_made(self, unit_id: int) -> None:
        """After a card of yours was saved (unit `unit_id`)."""

    def on_paragraph_view_make_card(self, event: ParagraphView.MakeCard) -> None:
        event.stop()
        article_id = self.card_article()
        if article_id is None:
            return
        if event.kind == "cloze":
            self._cloze(article_id, event.view, event.spans)
        else:
            self._unit(article_id, event.view, event.spans)

    def _cloze(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        made = None
        with self.reporting("making the cloze"):
            made = self.services.authoring.cloze(article_id, spans)
        if made is None:
            return
        view.clear_selection()
        notify(self.app, f"Cloze saved as yours: {SAVED}")
        self.card_made(made.unit_id)

    def _unit(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        draft = None
        with self.reporting("writing the card"):
            draft = self.services.authoring.draft(article_id, spans)
        if draft is None:
            return
        authoring = self.services.authoring

        def check(edit: UnitEdit):  # type: ignore[no-untyped-def]
            with self.reporting("checking the card"):
                return authoring.check(
                    article_id, spans, content=edit.content, memory_type=edit.memory_type,
                    tags=edit.tags, questions=edit.questions,
                )  # fmt: skip
            return None

        def done(edit: UnitEdit | None) -> None:
            if edit is None:
                return
            with self.reporting("saving your unit"):
                made = authoring.make(
                    article_id, spans, content=edit.content, memory_type=edit.memory_type,
                    tags=edit.tags, questions=edit.questions,
                )  # fmt: skip
                view.clear_selection()
                notify(self.app, f"Unit saved as yours: {SAVED}")
                self.card_made(made.unit_id)

        form = EditUnitModal(draft, check, title="New unit of yours, from the selection", keep_errors=False)
        self.app.push_screen(form, done)
