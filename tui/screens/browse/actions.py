"""What Browse does to its rows: the bulk actions, the ones that ask first, and undo.

Each action goes to the selection the screen says (the rows picked with space, else the whole
filter when `a` took it, else the row under the cursor) as one transaction: a command
(core/services/commands/bulk.py) in the app's worker, one at a time; `u` takes back the latest (Browse, Trash and Schedule share the one journal). BrowseScreen
(tui/screens/browse/screen.py) is the table these act on.
"""

from __future__ import annotations

from functools import partial

from textual.content import Content
from textual.message import Message

from core.domain.browse import BrowseRow, BulkAction, BulkResult, Selection
from core.services.commands.bulk import BulkAct, DeleteArticle
from core.text.words import plural
from tui import runner
from tui.safe import notify
from tui.screens.base import BaseScreen
from tui.screens.bulk import BulkUndone, in_bulk_worker, say_undone, undo_bulk

# A key of Browse -> (action, what it says it did, a question to ask first: tag / days)
ACTION_KEYS: dict[str, BulkAction] = {
    "suspend": BulkAction.SUSPEND,
    "unsuspend": BulkAction.UNSUSPEND,
    "bury": BulkAction.BURY,
    "unbury": BulkAction.UNBURY,
    "pin": BulkAction.PIN,
    "unpin": BulkAction.UNPIN,
    "trash": BulkAction.TRASH,
    "restore": BulkAction.RESTORE,
    "reject": BulkAction.REJECT,
    "confirm": BulkAction.CONFIRM,
    "keep": BulkAction.KEEP,
    "forget": BulkAction.FORGET,
}


class BrowseActions(BaseScreen):
    """The actions of Browse's keys; BrowseScreen says what they act on and shows the result."""

    _picked: set[str]
    _whole: bool

    def _current(self) -> BrowseRow | None:
        raise NotImplementedError

    def _selection(self) -> Selection | None:
        raise NotImplementedError

    def _reload(self) -> None:
        raise NotImplementedError

    def action_act(self, name: str, tag: str = "", days: int = 0, deck: int | None = None) -> None:
        selection = self._selection()
        if selection is None:
            notify(self.app, "No rows: change the filter", severity="warning")
            return
        self._run(ACTION_KEYS.get(name) or BulkAction(name), selection, tag, days, deck)

    class RowsChanged(Message):
        """A bulk action was done to the rows. Handled by `on_browse_actions_rows_changed`."""

        def __init__(self, action: BulkAction, result: BulkResult) -> None:
            super().__init__()
            self.action = action
            self.result = result

    def _run(self, action: BulkAction, selection: Selection, tag: str, days: int, deck: int | None) -> None:
        act = BulkAct(action, selection, tag=tag, days=days, deck=deck)
        in_bulk_worker(self, act, partial(self.RowsChanged, action))

    def on_browse_actions_rows_changed(self, message: RowsChanged) -> None:
        action, result = message.action, message.result
        if result.journal_id == 0:
            notify(self.app, f"Nothing to {action.value.replace('_', ' ')} here", severity="warning")
            return
        parts = [plural(n, what) for n, what in ((result.units, "unit"), (result.cards, "card")) if n]
        notify(self.app, f"{action.past.capitalize()}: {' and '.join(parts)} · u undoes it")
        self._picked.clear()
        self._whole = False
        self._reload()

    def _ask(self, question: str, then: partial[None], placeholder: str = "") -> None:
        from tui.modals.prompt import Ask

        self.app.push_screen(
            Ask(question, placeholder=placeholder), lambda answer: then(answer) if answer else None
        )

    def action_tag(self) -> None:
        self._ask("Add the tag", partial(self._tag_answered, "tag"), "a tag")

    def action_untag(self) -> None:
        self._ask("Take off the tag", partial(self._tag_answered, "untag"), "a tag")

    def _tag_answered(self, name: str, tag: str) -> None:
        self.action_act(name, tag=tag)

    def action_set_due(self) -> None:
        self._ask(
            "Due in how many days? (0: today; the cards' memory is kept)", partial(self._due_answered), "7"
        )

    def _due_answered(self, text: str) -> None:
        if not text.strip().isdigit():
            notify(self.app, f"{text!r} is not a number of days", severity="warning")
            return
        self.action_act("set_due", days=int(text))

    def action_move_deck(self) -> None:
        """The rows' units (every card of each) into another article's deck, where they are
        reviewed and exported; the first entry moves them back to their own article's deck."""
        from tui.modals.pick import PickModal

        articles = []
        with self.reporting("listing the articles"):
            articles = self.services.library.articles()
        entries = [(str(a.id), a.title, "") for a in articles]
        back = "back to the deck of its own article"
        self.app.push_screen(PickModal("Move to the deck of", entries, anything=back), self._deck_chosen)

    def _deck_chosen(self, key: str | None) -> None:
        if key == "":  # the first entry
            self.action_act("source_deck")
        elif key is not None:
            self.action_act("move_deck", deck=int(key))

    def action_undo(self) -> None:
        undo_bulk(self)

    def on_bulk_undone(self, message: BulkUndone) -> None:
        if say_undone(self.app, message.result):
            self._reload()

    def action_delete_article(self) -> None:
        from tui.modals.prompt import Confirm

        row = self._current()
        if row is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                in_bulk_worker(self, DeleteArticle(row.article_id), self.ArticleDeleted)

        question = Content.assemble("Delete the article ", (row.article_title, "bold"), "?")
        self.app.push_screen(
            Confirm(
                question.plain,
                "Its units go to the trash (their review history is kept) and can be restored for 30 days.",
            ),
            answered,
        )

    class ArticleDeleted(runner.Done[BulkResult]):
        """The article left the library, its units to the trash. Handled by
        `on_browse_actions_article_deleted`."""

    def on_browse_actions_article_deleted(self, message: ArticleDeleted) -> None:
        notify(
            self.app,
            f"Deleted; {plural(message.result.units, 'unit')} in the trash for 30 days · u undoes it, w shows the trash",
        )
        self._reload()

    def action_card_info(self) -> None:
        from tui.modals.card_info import CardInfoModal

        row = self._current()
        if row is None or row.key.card_id is None:
            notify(self.app, "This unit has no card yet (it is not confirmed)", severity="warning")
            return
        self.app.push_screen(CardInfoModal(self.services, (row.key.card_id,)))

    def action_open(self) -> None:
        row = self._current()
        if row is not None:
            self.open_article(row.article_id, unit_id=row.key.unit_id)

    def action_trash_view(self) -> None:
        from tui.screens.trash import TrashScreen

        self.app.push_screen(TrashScreen())
