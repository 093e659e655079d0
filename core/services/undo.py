"""Undo, one way for every screen: the newest entry of the caller's scope in the one journal
(core/storage/journal.py), taken back by its kind's put-back, in one write transaction.

    svc.undo.undo(Scope.REVIEW)               -> UndoResult | CurationUndo | None  Review (a card made there)
    svc.undo.undo(Scope.CURATION, article_id) -> CurationUndo | None  Triage, Article (a card made there)
    svc.undo.undo(Scope.BULK)                 -> BulkUndo | None      Browse, Trash, Schedule
    svc.undo.can_undo(scope, article_id=None) -> bool

Several steps: call again; the journal survives a restart. Each put-back takes back its own
change only (a card or unit changed since stays as it is, and the result says so), and marks
its entry done whatever it found (a review entry is deleted with its card rows); an entry with
nothing left to put back (its units purged since, or a library file's entry of an unknown kind)
is passed over for the one before it.

Why a scope and not one queue for the whole library (as Anki has): an undo is seen where it is
asked. u in Review shows the answered card again; taking back a Browse forget of 100k cards
from there would change what no screen in sight shows, and Triage's undo is by article.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, overload

from core.domain.browse import BulkUndo
from core.domain.model import CurationUndo
from core.domain.review import UndoResult
from core.domain.undo import Kind, Scope
from core.host.clock import Clock
from core.services.review.service import ReviewService
from core.storage import curation as curation_repo
from core.storage import journal
from core.storage.browse import actions as bulk_actions
from core.storage.browse import journal as bulk_journal
from core.storage.checkpoint import checkpoint_after
from core.storage.db import write_transaction
from core.storage.review import writes as review_writes

if TYPE_CHECKING:
    from core.domain.undo import Undone


@dataclass
class UndoService:
    clock: Clock
    review: ReviewService  # an undone answer's card is shown again in today's session

    @overload
    def undo(
        self, scope: Literal[Scope.REVIEW], article_id: None = None
    ) -> UndoResult | CurationUndo | None: ...
    @overload
    def undo(self, scope: Literal[Scope.CURATION], article_id: int | None = None) -> CurationUndo | None: ...
    @overload
    def undo(self, scope: Literal[Scope.BULK], article_id: None = None) -> BulkUndo | None: ...

    def undo(self, scope: Scope, article_id: int | None = None) -> Undone | None:
        """Take back the latest action of `scope` not yet undone (of one article: Triage)."""
        now = self.clock.epoch()
        with ExitStack() as room:
            if scope == Scope.BULK:  # up to every card of the library: its own cache and checkpoint
                room.enter_context(checkpoint_after())
                room.enter_context(bulk_journal.bulk_cache())
            room.enter_context(write_transaction())
            done = _newest(scope, article_id, now)
        if isinstance(done, UndoResult) and not done.changed_since:
            self.review.show_again(done.card_id)
        return done

    def can_undo(self, scope: Scope, article_id: int | None = None) -> bool:
        """Whether an entry of `scope` (of one article: Triage, the Article) waits to be undone
        (one whose details were purged since may still count: undo then finds nothing)."""
        return journal.newest(scope, article_id) is not None


def _newest(scope: Scope, article_id: int | None, now: int) -> Undone | None:
    while (entry := journal.newest(scope, article_id)) is not None:
        try:
            kind = Kind(entry.kind)
        except ValueError:  # a library file's entry of a kind no release writes: nothing to put back
            journal.mark_undone(int(entry.id))
            continue
        done = _put_back(kind, int(entry.id), now)
        if done is not None:
            return done
    return None


def _put_back(kind: Kind, entry_id: int, now: int) -> Undone | None:
    """The entry's kind's put-back; every one marks the entry done (None: nothing was left of it)."""
    match kind:
        case Kind.REVIEW:
            return review_writes.put_back(entry_id, now)
        case Kind.CURATION:
            return curation_repo.put_back(entry_id, now)
        case Kind.BULK:
            return bulk_actions.put_back(entry_id, now)
