"""What a screen with a paragraph view does with a selection: `c` makes a cloze of it, `n` opens
the form on a unit of it (core/services/authoring.py saves either: yours, confirmed, in
today's session). Article, Triage and Review are such screens; each says which article its
view shows (`card_article`) and what to show once a card is made (`card_made`).
"""

from __future__ import annotations

from textual import work
from textual.message import Message

from core.domain import SelectedSpan, StoredUnit
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.widgets.paragraph_view import ParagraphView

SAVED = "in today's session, new-card limits allowing (u undoes)"


class MakesCards(BaseScreen):
    """A screen whose paragraph view makes cards of yours from its selection."""

    class CardSaved(Message):
        """A save worker stored a card of yours. Handled by `on_makes_cards_card_saved`."""

        def __init__(self, view: ParagraphView, unit_id: int, said: str) -> None:
            super().__init__()
            self.view = view
            self.unit_id = unit_id
            self.said = said

    class DraftWritten(Message):
        """The card writer wrote a draft unit of the selection. Handled by
        `on_makes_cards_draft_written` (the form opens on it)."""

        def __init__(
            self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...], draft: StoredUnit
        ) -> None:
            super().__init__()
            self.article_id = article_id
            self.view = view
            self.spans = spans
            self.draft = draft

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
            self._save_cloze(article_id, event.view, event.spans)
        else:
            self._write_draft(article_id, event.view, event.spans)

    @work(thread=True, name="saving the cloze", group="own-cards", exit_on_error=False)
    def _save_cloze(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        """Thread worker: the save reads and checks the article (tens of ms on a long one); a
        refused card is reported under the worker's name (BaseScreen), nothing saved."""
        try:
            made = self.services.authoring.cloze(article_id, spans)
        finally:
            self.services.end_thread_work()
        self.post_message(self.CardSaved(view, made.unit_id, f"Cloze saved as yours: {SAVED}"))

    @work(thread=True, name="saving your unit", group="own-cards", exit_on_error=False)
    def _save_unit(
        self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...], edit: UnitEdit
    ) -> None:
        try:
            made = self.services.authoring.make(
                article_id, spans, content=edit.content, memory_type=edit.memory_type,
                tags=edit.tags, questions=edit.questions,
            )  # fmt: skip
        finally:
            self.services.end_thread_work()
        self.post_message(self.CardSaved(view, made.unit_id, f"Unit saved as yours: {SAVED}"))

    def on_makes_cards_card_saved(self, message: CardSaved) -> None:
        message.view.clear_selection()
        notify(self.app, message.said)
        self.card_made(message.unit_id)

    @work(thread=True, name="writing the card", group="own-cards", exit_on_error=False)
    def _write_draft(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        """Thread worker: the card writer reads the whole article the first time (its word
        counts: seconds on a very long one), then the form opens on the draft."""
        try:
            draft = self.services.authoring.draft(article_id, spans)
        finally:
            self.services.end_thread_work()
        self.post_message(self.DraftWritten(article_id, view, spans, draft))

    def on_makes_cards_draft_written(self, message: DraftWritten) -> None:
        article_id, view, spans = message.article_id, message.view, message.spans
        authoring = self.services.authoring

        def check(edit: UnitEdit):  # type: ignore[no-untyped-def]
            with self.reporting("checking the card"):
                return authoring.check(
                    article_id, spans, content=edit.content, memory_type=edit.memory_type,
                    tags=edit.tags, questions=edit.questions,
                )  # fmt: skip
            return None

        def done(edit: UnitEdit | None) -> None:
            if edit is not None:
                self._save_unit(article_id, view, spans, edit)

        form = EditUnitModal(
            message.draft, check, title="New unit of yours, from the selection", keep_errors=False
        )
        self.app.push_screen(form, done)
