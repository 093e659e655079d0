"""Cards of yours, made from a paragraph view's selection: `c` makes a cloze of it, `n` opens
the form on a unit of it (core/services/authoring.py saves either: yours, confirmed, in
today's session). Article, Triage and Review each hold one (`self.cards = OwnCards(self, scope)`,
as they hold a TypeAhead) and say in their own handlers which article their view shows and what
they do once a card is made: the paragraph view's `MakeCard` and `SelectionChanged` go to
`make` and `read_ahead`, this helper's messages (posted to the screen) to `open_form` and `saved`.
It was a base class of the three (MakesCards), which each had to set its hooks and flags for.

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
from tui.widgets.paragraph_view import ParagraphView

if TYPE_CHECKING:
    from core.services.authoring import Made
    from tui.screens.base import BaseScreen

SAVED = "in today's session, new-card limits allowing (u undoes)"


class OwnCards:
    """What `screen`'s paragraph view makes of its selection: cards of yours, undone by `u` in
    `scope` (Review: its own undo, with the answers; Article and Triage: curation's)."""

    def __init__(self, screen: BaseScreen, scope: Scope) -> None:
        self.screen = screen
        self.scope = scope
        self.on_its_way = False  # a card of yours is being saved (on the writer thread)

    @dataclass
    class CardSaved(Message):
        """A card of yours was saved (`what`: "Cloze", "Unit", ...). Handled by the screen's
        `on_own_cards_card_saved`, which calls `saved` and then shows the card its way."""

        view: ParagraphView
        unit_id: int
        what: str

    @dataclass
    class DraftWritten(Message):
        """The card writer wrote a draft unit of the selection. Handled by the screen's
        `on_own_cards_draft_written`, which calls `open_form`."""

        article_id: int
        view: ParagraphView
        spans: tuple[SelectedSpan, ...]
        draft: StoredUnit

    def make(self, article_id: int | None, event: ParagraphView.MakeCard) -> None:
        """`c` or `n` in the view, which shows article `article_id` (None: no article now)."""
        event.stop()
        if article_id is None:
            return
        if event.kind == "cloze":
            self._save(article_id, event.view, event.spans, None)
        else:
            self._write_draft(article_id, event.view, event.spans)

    def read_ahead(self, article_id: int | None, event: ParagraphView.SelectionChanged) -> None:
        """A selection starting: the article's topic terms, read once in a worker, so that its
        cards save at once."""
        started = event.view.selection is not None
        if article_id is not None and started and not self.screen.services.authoring.ready(article_id):
            topics = partial(self.screen.services.authoring.topics, article_id)
            runner.start(
                self.screen,
                "reading the article for your card",
                topics,
                group="own-cards-ready",
                exclusive=True,
            )

    def _save(
        self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...], edit: UnitEdit | None
    ) -> None:
        """A cloze (`edit` None) or the form's unit, saved by its command in a worker. A refused
        card is reported (the app's notice) and nothing is saved; the selection stays."""
        screen = self.screen
        drafting = any(w.group == "own-cards" and w.is_running for w in screen.workers if w.node is screen)
        if drafting or self.on_its_way:
            notify(screen.app, "Still saving the last card: press it again once it is saved")
            return
        scope = self.scope
        command: MakeCloze | MakeUnit = (
            MakeCloze(article_id, spans, scope)
            if edit is None
            else MakeUnit(article_id, spans, edit.content, edit.memory_type, edit.tags, edit.questions, scope)
        )
        self.on_its_way = True
        runner.run(screen, command, partial(self._saved, view, edit), failed=self._not_saved)

    def _not_saved(self, error: Exception) -> None:
        self.on_its_way = False

    def _saved(self, view: ParagraphView, edit: UnitEdit | None, made: Made) -> CardSaved:
        return self.CardSaved(view, made.unit_id, _what(edit, made))

    def saved(self, message: CardSaved) -> None:
        """The card is saved: the next one may be made; the selection goes. (The screen then
        shows it its own way.)"""
        self.on_its_way = False
        message.view.clear_selection()

    def say(self, what: str) -> None:
        """Say that a card of yours (`what`: "Cloze", "Unit", ...) was saved, in a notice (the
        Article screen says it in place: a toast lays the screen out again)."""
        notify(self.screen.app, f"{what} saved as yours: {SAVED}")

    def _write_draft(self, article_id: int, view: ParagraphView, spans: tuple[SelectedSpan, ...]) -> None:
        """In a worker: the card writer reads the whole article the first time (its word
        counts: seconds on a very long one), then the form opens on the draft."""
        draft = partial(self.screen.services.authoring.draft, article_id, spans)
        written = partial(self.DraftWritten, article_id, view, spans)
        runner.start(self.screen, "writing the card", draft, written, group="own-cards")

    def open_form(self, message: DraftWritten) -> None:
        """The form on the draft; what it gives back is saved (`_save`)."""
        article_id, view, spans = message.article_id, message.view, message.spans
        screen = self.screen
        authoring = screen.services.authoring

        def check(edit: UnitEdit):  # type: ignore[no-untyped-def]
            with screen.reporting("checking the card"):
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
        screen.app.push_screen(form, done)


def _what(edit: UnitEdit | None, made: Made) -> str:
    """What was saved, as the notice names it: "Cloze", or "Unit (repeats unit 12)" for one the
    article had already (saved all the same: a warning, as for an extractor's repeat)."""
    kind = "Cloze" if edit is None else "Unit"
    return f"{kind} ({made.repeats})" if made.repeats else kind
