"""Curation's writes, Triage's keys and the edit form's save: accept, reject, accept every valid
unit of an article, keep or retire a unit whose source changed, keep a contradiction with a
reason, and an edit. Each is one CurationService method: its transaction and its curation event
(the one journal, so `u` takes it back: core/services/commands/undo.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.services.commands import Command

if TYPE_CHECKING:
    from core.services.bootstrap import Services
    from core.services.curation import Edited


@dataclass(frozen=True, slots=True)
class Accept(Command[bool]):
    """Confirm a proposed unit (its questions become cards); CannotAccept while it has errors.
    False: it was gone."""

    unit_id: int
    what: ClassVar[str] = "accepting"

    def handle(self, services: Services) -> bool:
        return services.curation.accept(self.unit_id)


@dataclass(frozen=True, slots=True)
class Reject(Command[bool]):
    """Reject a proposed unit. False: it was gone."""

    unit_id: int
    what: ClassVar[str] = "rejecting"

    def handle(self, services: Services) -> bool:
        return services.curation.reject(self.unit_id)


@dataclass(frozen=True, slots=True)
class AcceptAllValid(Command[int]):
    """Confirm every proposed unit of one article without an error, one undoable batch: how many."""

    article_id: int
    what: ClassVar[str] = "accepting all valid units"

    def handle(self, services: Services) -> int:
        return services.curation.accept_all_valid(self.article_id)


@dataclass(frozen=True, slots=True)
class KeepAsIs(Command[bool]):
    """Keep a unit whose source changed as it is (its quote stays as history). False: it was
    gone, or its source had not changed."""

    unit_id: int
    what: ClassVar[str] = "keeping the unit"

    def handle(self, services: Services) -> bool:
        return services.curation.keep(self.unit_id)


@dataclass(frozen=True, slots=True)
class Retire(Command[bool]):
    """Retire a unit whose source changed to the trash (its cards leave review)."""

    unit_id: int
    what: ClassVar[str] = "retiring the unit"

    def handle(self, services: Services) -> bool:
        return services.curation.retire(self.unit_id)


@dataclass(frozen=True, slots=True)
class KeepAnyway(Command[bool]):
    """Keep a unit whose words its quote contradicts (or does not back), with the reader's
    reason: it may be accepted then. False: nothing left to keep."""

    unit_id: int
    reason: str
    what: ClassVar[str] = "keeping the unit"

    def handle(self, services: Services) -> bool:
        return services.curation.keep_anyway(self.unit_id, self.reason)


@dataclass(frozen=True, slots=True)
class Edit(Command["Edited"]):
    """Save the edit form's unit (even with issues: stored, they block accepting it); its
    questions built from the old content ask about the new one (`Edited.reasked`)."""

    unit_id: int
    content: str
    memory_type: str
    tags: tuple[str, ...]
    questions: tuple[tuple[str, str, str], ...]
    what: ClassVar[str] = "saving the edit"

    def handle(self, services: Services) -> Edited:
        return services.curation.edit(
            self.unit_id,
            content=self.content,
            memory_type=self.memory_type,
            tags=self.tags,
            questions=self.questions,
        )
