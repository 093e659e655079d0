"""The journalled writes of Browse, the Trash and Schedule (one journal: `u` in any of the three
takes back the latest), and the trash's purge.

A journalled write may touch every card of the library (a minute on a million), so they run one
at a time (`Journalled`): a second key waits for the first's transaction instead of racing it for
the newest journal entry, and the undo after them takes back the right one. The lock is the
process's: the app's workers, and the CLI, which has one thread, never waits on it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

from core.domain.browse import BulkAction, BulkResult, BulkUndo, Selection
from core.domain.undo import Scope
from core.services.commands import Command

if TYPE_CHECKING:
    from core.services.bootstrap import Services

R = TypeVar("R")
ONE_AT_A_TIME = threading.Lock()


class Journalled(Command[R]):
    """A command whose write is a journal entry of the bulk scope: `write` runs holding the
    process's one lock of such writes. Long (up to every card): a worker of its own in the app."""

    long: ClassVar[bool] = True

    def handle(self, services: Services) -> R:
        with ONE_AT_A_TIME:
            return self.write(services)

    def write(self, services: Services) -> R:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class BulkAct(Journalled[BulkResult]):
    """One action (suspend, trash, tag, set due, move deck, ...) on the selection, or on its
    whole filter: one transaction, one journal entry (`journal_id` 0: nothing changed)."""

    action: BulkAction
    selection: Selection
    tag: str = ""
    days: int = 0
    deck: int | None = None
    what: ClassVar[str] = "changing the rows"

    def write(self, services: Services) -> BulkResult:
        return services.browse.act(self.action, self.selection, tag=self.tag, days=self.days, deck=self.deck)


@dataclass(frozen=True, slots=True)
class DeleteArticle(Journalled[BulkResult]):
    """The article leaves the library, its units to the trash for 30 days; undoable."""

    article_id: int
    what: ClassVar[str] = "deleting the article"

    def write(self, services: Services) -> BulkResult:
        return services.browse.delete_article(self.article_id)


@dataclass(frozen=True, slots=True)
class RestoreArticle(Journalled[BulkResult]):
    """A deleted article back, with the units trashed with it (or after); undoable."""

    article_id: int
    what: ClassVar[str] = "restoring"

    def write(self, services: Services) -> BulkResult:
        return services.browse.restore_article(self.article_id)


@dataclass(frozen=True, slots=True)
class UndoBulk(Journalled["BulkUndo | None"]):
    """Take back the latest journalled write of Browse, the Trash or Schedule (None: none)."""

    what: ClassVar[str] = "undoing"

    def write(self, services: Services) -> BulkUndo | None:
        return services.undo.undo(Scope.BULK)


@dataclass(frozen=True, slots=True)
class Purge(Command[int]):
    """Trashed units deleted for good now, their cards and history with them (not undoable:
    the Trash asks first). How many went."""

    unit_ids: tuple[int, ...]
    what: ClassVar[str] = "purging"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> int:
        return services.browse.purge(list(self.unit_ids))


@dataclass(frozen=True, slots=True)
class LiftEndedBurials(Command[int]):
    """Before Browse shows card states: burials that ended lifted, so the stored queue is the
    card's state (never waiting for another process's write lock: then 0, left for later)."""

    what: ClassVar[str] = "lifting ended burials"

    def handle(self, services: Services) -> int:
        return services.browse.start()
