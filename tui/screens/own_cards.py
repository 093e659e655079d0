"""What a screen with a paragraph view does with a selection: `c` makes a cloze of it, `n` opens
the form on a unit of it (core/services/authoring.py saves either: yours, confirmed, in
today's session). Article, Triage and Review are such screens; each says which article its
view shows (`card_article`) and what to show once a card is made (`card_made`).

A card is saved by a command (MakeCloze, MakeUnit: core/services/commands/authoring.py) in a
worker, always: one transaction that reads the paragraph it cites, checks the card and stores
it, a few ms (bench/bench_tui.py, "c -> cloze saved"); another process holding the write lock
(the worker waits up to the busy timeout) never freezes the screen. The card is listed when its
message comes back (Article says so in place, not in a toast: a toast is mounted and laid out,
a second frame after the save); a second `c` meanwhile makes no second card. The first card of
an article reads all of it once (its topic terms, ~300 ms on 5,000 paragraphs): a selection
starting reads them ahead, in a worker, so the save itself stays short.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.message import Message

from core.domain import SelectedSpan, StoredUnit
from core.domain.undo import Scope
from core.services.commands.authoring import MakeCloze, MakeUnit
from tui import runner
from tui.modals.edit_unit import EditUnitModal, UnitEdit
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.widgets.paragraph_view import ParagraphView

if TYPE_CHECKING:
    from core.services.authoring import Made

SAVED = "in today's session, new-card limits allowing (u undoes)"


class MakesCards(BaseScreen):
    """A screen whose paragraph view makes cards of yours from its selection."""

    undo_scope = Scope.CURATION  # where u takes a card made here back (Review: its own undo)
    card_on_its_way = False  # a card of yours is being saved (on the writer thread)

    @dataclass
    class CardSaved(Message):
        """A card of yours was saved (`what`: "Cloze", "Unit", ...). Handled by
        `on_makes_cards_card_saved`."""

        view: ParagraphView
        unit_id: int
        what: str

    @dataclass
    class DraftWritten(Message):
        """The card writer wrote a draft unit of the selection. Handled by
        `on_makes_cards_draft_written` (the form opens on it)."""

        article_id: int
        view: ParagraphView
        spans: tuple[SelectedSpan, ...]
        draft: StoredUnit

    def card_article(self) -> int | None:
        """The article the paragraph view shows."""
        return None

    def card_made(self, unit_id: int) -> None:
        """After a card of yours was saved (unit `unit_id`)."""

    def card_said(self, what: str) -> None:
        """Say that a card of yours (`what`: "Cloze", "Unit", ...) was saved: a notice here;
        the Article screen says it in place (a toast lays the screen out again)."""
        notify(self.app, f"{what} saved as yours: {SAVED}")

    def on_paragraph_view_make_card(self, event: ParagraphView.MakeCard) -> None:
        event.stop()
        article_id = self.card_article()
        if article_id is None:
            return
        if event.kind == "cloze":
            self._save(article_id, event.view, event.spans, None)
        else:
            self._write_draft(article_id, event.view, event.spans)

    def on_paragraph_view_selection_changed(self, event: ParagraphView.SelectionChanged) -> None:
        article_id = self.card_article()
        started = event.view.selection is not None
        if article_id is not None and started and not self.services.authoring.ready(article_id):
            self._prepare(article_id)

    def _prepare(self, article_id: int) -> None:
        """In a worker: the article's topic terms, read once, so that its cards save at once."""
        topics = partial(self.services.authoring.topics, article_id)
        runner.start(
            self, "reading the article for your card", topics, group="own-cards-ready", exclusive=True
        )

    def _save(
        self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...], edit: UnitEdit | None
    ) -> None:
        """A cloze (`edit` None) or the form's unit, saved by its command in a worker. A refused
        card is reported (the app's notice) and nothing is saved; the selection stays."""
        drafting = any(w.group == "own-cards" and w.is_running for w in self.workers if w.node is self)
        if drafting or self.card_on_its_way:
            notify(self.app, "Still saving the last card: press it again once it is saved")
            return
        scope = self.undo_scope
        command: MakeCloze | MakeUnit = (
            MakeCloze(article_id, spans, scope)
            if edit is None
            else MakeUnit(article_id, spans, edit.content, edit.memory_type, edit.tags, edit.questions, scope)
        )
        self.card_on_its_way = True
        runner.run(self, command, partial(self._saved, view, edit), failed=self._not_saved)

    def _not_saved(self, error: Exception) -> None:
        self.card_on_its_way = False

    def _saved(self, view: ParagraphView, edit: UnitEdit | None, made: Made) -> CardSaved:
        return self.CardSaved(view, made.unit_id, _what(edit, made))

    def on_makes_cards_card_saved(self, message: CardSaved) -> None:
        self.card_on_its_way = False
        message.view.clear_selection()
        self.card_made(message.unit_id)
        self.card_said(message.what)

    def _write_draft(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        """In a worker: the card writer reads the whole article the first time (its word
        counts: seconds on a very long one), then the form opens on the draft."""
        draft = partial(self.services.authoring.draft, article_id, spans)
        written = partial(self.DraftWritten, article_id, view, spans)
        runner.start(self, "writing the card", draft, written, group="own-cards")

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
                self._save(article_id, view, spans, edit)

        form = EditUnitModal(
            message.draft, check, title="New unit of yours, from the selection", keep_errors=False
        )
        self.app.push_screen(form, done)


def _what(edit: UnitEdit | None, made: Made) -> str:
    """What was saved, as the notice names it: "Cloze", or "Unit (repeats unit 12)" for one the
    article had already (saved all the same: a warning, as for an extractor's repeat)."""
    kind = "Cloze" if edit is None else "Unit"
    return f"{kind} ({made.repeats})" if made.repeats else kind
