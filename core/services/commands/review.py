"""Review's writes: today's session started, an answer, suspending, burying, pinning, a new day's
unbury."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.domain.review import AnswerResult, SessionSummary
from core.services.commands import Command

if TYPE_CHECKING:
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class StartSession(Command[SessionSummary]):
    """Lift the burials that have ended (never waiting for another process's lock: then the
    unbury stays due, for `CatchUp`) and build today's queue: the Review screen's first step."""

    what: ClassVar[str] = "starting today's session"

    def handle(self, services: Services) -> SessionSummary:
        return services.review.start_session()


@dataclass(frozen=True, slots=True)
class Answer(Command[AnswerResult]):
    """Rate a card 1-4: the card's new state and its review log in one IMMEDIATE transaction,
    with its undo entry (Review's scope)."""

    card_id: int
    rating: int
    duration_ms: int | None = None
    what: ClassVar[str] = "saving the answer"

    def handle(self, services: Services) -> AnswerResult:
        return services.review.answer(self.card_id, self.rating, duration_ms=self.duration_ms)


@dataclass(frozen=True, slots=True)
class SetAside(Command[bool]):
    """Suspend the card, or bury it until the next review day (`bury`); False: it was gone."""

    card_id: int
    bury: bool
    what: ClassVar[str] = "setting the card aside"

    def handle(self, services: Services) -> bool:
        review = services.review
        return (review.bury if self.bury else review.suspend)(self.card_id)


@dataclass(frozen=True, slots=True)
class Pin(Command[bool]):
    """Pin a unit (its cards reviewed at the pinned retention, re-timed now), or unpin it."""

    unit_id: int
    pinned: bool
    what: ClassVar[str] = "pinning"

    def handle(self, services: Services) -> bool:
        return services.review.pin_unit(self.unit_id, self.pinned)


@dataclass(frozen=True, slots=True)
class CatchUp(Command[bool]):
    """A new review day's unbury left to do (a read of the day writes nothing; or it met another
    process's write lock), waiting for the lock. True: done here; False: nothing was left."""

    what: ClassVar[str] = "starting the new review day"

    def handle(self, services: Services) -> bool:
        return services.review.catch_up()
