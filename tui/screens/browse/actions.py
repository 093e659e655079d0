"""What Browse does to its rows: the bulk actions, the ones that ask first, and undo.

Each action goes to the selection the screen says (the rows picked with space, else the whole
filter when `a` took it, else the row under the cursor) as one transaction: a command
(core/services/commands/bulk.py) in the app's worker, one at a time; `u` takes back the latest
(Browse, Trash and Schedule share the one journal). BrowseScreen (tui/screens/browse/screen.py)
is the table these act on: it holds one (`self.actions = BrowseActions(self, ...)`, as Article
holds its OwnCards), its keys' actions are this helper's methods (`action_tag =
by_actions(BrowseActions.tag)`: Textual looks a key's action up on the screen), and its handlers
of this helper's messages (`on_browse_actions_*`, posted to the screen) hand them back here. It
was the screen's base class, which left hooks for the screen to fill in (the rows, the selection,
a reload).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import TYPE_CHECKING, Protocol

from textual.content import Content
from textual.message import Message

from core.domain.browse import BrowseRow, BulkAction, BulkResult, Selection
from core.services.commands.bulk import BulkAct, DeleteArticle
from core.text.words import plural
from tui import runner
from tui.safe import notify
from tui.screens.bulk import in_bulk_worker, undo_bulk

if TYPE_CHECKING:
    from tui.screens.base import BaseScreen

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


class HoldsActions(Protocol):
    actions: BrowseActions


def by_actions(do: Callable[..., None]) -> Callable[..., None]:
    """A screen's key action that its BrowseActions does (`do`, one of its methods); the key's
    parameters (`act('suspend')`) pass on (Textual counts them on `do`'s signature)."""

    @wraps(do)
    def action(screen: HoldsActions, *params: object) -> None:
        do(screen.actions, *params)

    return action


class BrowseActions:
    """The actions of Browse's keys on `screen`'s rows: `selection()` says which rows an action
    goes to (None: there are none), `current()` the row under the cursor; the screen shows the
    result (a message to it)."""

    def __init__(
        self,
        screen: BaseScreen,
        selection: Callable[[], Selection | None],
        current: Callable[[], BrowseRow | None],
    ) -> None:
        self.screen = screen
        self.selection = selection
        self.current = current

    def act(self, name: str, tag: str = "", days: int = 0, deck: int | None = None) -> None:
        selection = self.selection()
        if selection is None:
            notify(self.screen.app, "No rows: change the filter", severity="warning")
            return
        action = ACTION_KEYS.get(name) or BulkAction(name)
        act = BulkAct(action, selection, tag=tag, days=days, deck=deck)
        in_bulk_worker(self.screen, act, partial(self.RowsChanged, action))

    class RowsChanged(Message):
        """A bulk action was done to the rows. Handled by the screen's
        `on_browse_actions_rows_changed`, which calls `changed`."""

        def __init__(self, action: BulkAction, result: BulkResult) -> None:
            super().__init__()
            self.action = action
            self.result = result

    def changed(self, message: RowsChanged) -> bool:
        """Say what the action did; True when it changed rows (the screen drops its picks and
        reads the rows again)."""
        action, result = message.action, message.result
        if result.journal_id == 0:
            notify(self.screen.app, f"Nothing to {action.value.replace('_', ' ')} here", severity="warning")
            return False
        parts = [plural(n, what) for n, what in ((result.units, "unit"), (result.cards, "card")) if n]
        notify(self.screen.app, f"{action.past.capitalize()}: {' and '.join(parts)} · u undoes it")
        return True

    def _ask(self, question: str, then: partial[None], placeholder: str = "") -> None:
        from tui.modals.prompt import Ask

        self.screen.app.push_screen(
            Ask(question, placeholder=placeholder), lambda answer: then(answer) if answer else None
        )

    def tag(self) -> None:
        self._ask("Add the tag", partial(self._tag_answered, "tag"), "a tag")

    def untag(self) -> None:
        self._ask("Take off the tag", partial(self._tag_answered, "untag"), "a tag")

    def _tag_answered(self, name: str, tag: str) -> None:
        self.act(name, tag=tag)

    def set_due(self) -> None:
        self._ask(
            "Due in how many days? (0: today; the cards' memory is kept)", partial(self._due_answered), "7"
        )

    def _due_answered(self, text: str) -> None:
        if not text.strip().isdigit():
            notify(self.screen.app, f"{text!r} is not a number of days", severity="warning")
            return
        self.act("set_due", days=int(text))

    def move_deck(self) -> None:
        """The rows' units (every card of each) into another article's deck, where they are
        reviewed and exported; the first entry moves them back to their own article's deck."""
        from tui.modals.pick import PickModal

        articles = []
        with self.screen.reporting("listing the articles"):
            articles = self.screen.services.library.articles()
        entries = [(str(a.id), a.title, "") for a in articles]
        back = "back to the deck of its own article"
        self.screen.app.push_screen(
            PickModal("Move to the deck of", entries, anything=back), self._deck_chosen
        )

    def _deck_chosen(self, key: str | None) -> None:
        if key == "":  # the first entry
            self.act("source_deck")
        elif key is not None:
            self.act("move_deck", deck=int(key))

    def delete_article(self) -> None:
        from tui.modals.prompt import Confirm

        row = self.current()
        if row is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                in_bulk_worker(self.screen, DeleteArticle(row.article_id), self.ArticleDeleted)

        question = Content.assemble("Delete the article ", (row.article_title, "bold"), "?")
        self.screen.app.push_screen(
            Confirm(
                question.plain,
                "Its units go to the trash (their review history is kept) and can be restored for 30 days.",
            ),
            answered,
        )

    class ArticleDeleted(runner.Done[BulkResult]):
        """The article left the library, its units to the trash. Handled by the screen's
        `on_browse_actions_article_deleted`, which calls `deleted` and reads the rows again."""

    def deleted(self, message: ArticleDeleted) -> None:
        notify(
            self.screen.app,
            f"Deleted; {plural(message.result.units, 'unit')} in the trash for 30 days · u undoes it, w shows the trash",
        )

    def card_info(self) -> None:
        from tui.modals.card_info import CardInfoModal

        row = self.current()
        if row is None or row.key.card_id is None:
            notify(self.screen.app, "This unit has no card yet (it is not confirmed)", severity="warning")
            return
        self.screen.app.push_screen(CardInfoModal(self.screen.services, (row.key.card_id,)))

    def open(self) -> None:
        row = self.current()
        if row is not None:
            self.screen.open_article(row.article_id, unit_id=row.key.unit_id)

    def undo(self) -> None:
        """`u`: the latest bulk action taken back; `BulkUndone` to the screen says what."""
        undo_bulk(self.screen)

    def trash_view(self) -> None:
        from tui.screens.trash import TrashScreen

        self.screen.app.push_screen(TrashScreen())
