"""Every write the reader asks for is a typed command (issue 31): a frozen dataclass that names
what it changes, and its handler, the one method that does it through the services and returns a
domain result. `services.run(command)` is the one way a screen, the CLI or a test changes the
library:

    result = services.run(Answer(card_id, Rating.GOOD, duration_ms=4200))   # -> AnswerResult

In the app a command runs in a named worker (`tui.runner.run(screen, command, done)`): the
worker's name is the command's `what` ("saving the answer"), which a failure's notice says; the
UI thread never waits for the database's write lock.

Adding an action is one command here (its fields, `what`, and `handle`, which calls the service
whose transaction writes it and its undo journal entry), one key binding, and the handler of its
result on the screen. The commands of an area sit in their module (review.py, curation.py, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    from core.services.bootstrap import Services

R = TypeVar("R", covariant=True)


class Command(Generic[R]):
    """A write, typed by its result `R`. Subclasses are frozen dataclasses; `what` is the
    gerund a notice says it under ("saving the answer: the database is busy ...")."""

    what: ClassVar[str]
    long: ClassVar[bool] = False  # an import, a bulk action: a worker of its own (tui/runner.py)

    def handle(self, services: Services) -> R:
        """Do the write (one transaction, with its undo entry where it has one) and return what
        came of it. Called by `Services.run` only."""
        raise NotImplementedError
