"""Schedule's writes: easy days, vacations, review ahead, postpone, rescheduling for a new
desired retention, fitting FSRS to the reviews, and the CLI's postponed backlog.

The moves of due dates are journal entries (`u` in Schedule or Browse takes them back), so they
are `Journalled`: one at a time with Browse's and the Trash's. A value the service refuses
before writing anything (ValueError: "Sunday: 1.5 is more than a full day") comes back as its
sentence, for the screen to say as a warning, not as a failure of the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.domain.browse import BulkResult
from core.services.commands import Command
from core.services.commands.bulk import Journalled
from core.services.review.optimize import NotEnoughReviews

if TYPE_CHECKING:
    from core.domain.review import OptimizeResult
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class SetEasyDays(Journalled["BulkResult | str"]):
    """The load of each weekday ('1 1 1 1 1 0.5 0.5', Monday first), and the cards already
    scheduled moved off the lighter days; a text refused: why."""

    text: str
    what: ClassVar[str] = "moving cards off the easy days"

    def write(self, services: Services) -> BulkResult | str:
        try:
            return services.schedule.set_easy_days(self.text)
        except ValueError as exc:
            return str(exc)


@dataclass(frozen=True, slots=True)
class AddVacation(Journalled["BulkResult | str"]):
    """A vacation more ('2026-12-24..2026-12-31', or one day), the cards moved off it; a text
    refused: why."""

    text: str
    what: ClassVar[str] = "moving cards off the vacation"

    def write(self, services: Services) -> BulkResult | str:
        try:
            return services.schedule.add_vacation(self.text)
        except ValueError as exc:
            return str(exc)


@dataclass(frozen=True, slots=True)
class ClearVacations(Journalled[None]):
    """No vacations from now on (cards moved for them stay where they are). Not a journal entry
    itself, but one at a time with them: after a vacation on its way (`AddVacation`), not
    before it."""

    what: ClassVar[str] = "clearing the vacations"

    def write(self, services: Services) -> None:
        services.schedule.clear_vacations()


@dataclass(frozen=True, slots=True)
class ReviewAhead(Journalled[BulkResult]):
    """The cards due in the next `days` days brought to today."""

    days: int
    what: ClassVar[str] = "bringing cards forward"

    def write(self, services: Services) -> BulkResult:
        return services.schedule.review_ahead(self.days)


@dataclass(frozen=True, slots=True)
class Postpone(Journalled[BulkResult]):
    """Today's due cards (overdue too) moved `days` days on."""

    days: int
    what: ClassVar[str] = "postponing"

    def write(self, services: Services) -> BulkResult:
        return services.schedule.postpone(self.days)


@dataclass(frozen=True, slots=True)
class Reschedule(Journalled[BulkResult]):
    """Every review card re-timed for the desired retention `retention`."""

    retention: float
    what: ClassVar[str] = "rescheduling"

    def write(self, services: Services) -> BulkResult:
        return services.schedule.reschedule(self.retention)


@dataclass(frozen=True, slots=True)
class PostponeBacklog(Command[int]):
    """The overdue backlog beyond today's cap spread over `days` days, least harmful first
    (`memoryrush session --postpone`); how many cards moved (Review's undo takes it back)."""

    days: int
    what: ClassVar[str] = "postponing the backlog"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> int:
        return services.review.postpone_backlog(days=self.days)


@dataclass(frozen=True, slots=True)
class Optimize(Command["OptimizeResult | str"]):
    """FSRS fitted to the review log, the parameters saved when they fit better (and every card
    re-timed with them, `reschedule`); too few reviews: why, as a sentence."""

    reschedule: bool = False
    min_reviews: int | None = None
    what: ClassVar[str] = "optimizing"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> OptimizeResult | str:
        try:
            return services.review.optimize(reschedule=self.reschedule, min_reviews=self.min_reviews)
        except NotEnoughReviews as exc:
            return str(exc)
