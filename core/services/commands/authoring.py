"""Authoring's writes: a card of yours from a selection (a cloze, or the form's unit), a unit of
a core idea, and Triage's one-step fixes of a proposal (the next blank, a split, the selection as
its evidence). Each is one AuthoringService method: one transaction with its curation event, so
`u` takes it back in the scope it was made in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.domain.undo import Scope
from core.services.commands import Command

if TYPE_CHECKING:
    from core.domain import SelectedSpan, ValidationReport
    from core.services.authoring import Made
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class MakeCloze(Command["Made"]):
    """The selection (one paragraph's words) is the blank of a cloze of yours on its sentence;
    CannotMake (nothing saved) when it would break an error rule. `scope`: where `u` takes it
    back (the screen it was made in)."""

    article_id: int
    spans: tuple[SelectedSpan, ...]
    scope: Scope = Scope.CURATION
    what: ClassVar[str] = "saving the cloze"

    def handle(self, services: Services) -> Made:
        return services.authoring.cloze(self.article_id, self.spans, scope=self.scope)


@dataclass(frozen=True, slots=True)
class MakeUnit(Command["Made"]):
    """The form's unit of yours on the selection: confirmed, its cards made; CannotMake (nothing
    saved) while it has an error."""

    article_id: int
    spans: tuple[SelectedSpan, ...]
    content: str
    memory_type: str
    tags: tuple[str, ...]
    questions: tuple[tuple[str, str, str], ...]
    scope: Scope = Scope.CURATION
    what: ClassVar[str] = "saving your unit"

    def handle(self, services: Services) -> Made:
        return services.authoring.make(
            self.article_id, self.spans, content=self.content, memory_type=self.memory_type,
            tags=self.tags, questions=self.questions, scope=self.scope,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class MakeIdeaUnit(Command["Made"]):
    """A unit of yours of the article's core idea `index` (its words, its quotes); the card
    writer reads the whole article the first time."""

    article_id: int
    index: int
    what: ClassVar[str] = "making a unit of the idea"

    def handle(self, services: Services) -> Made:
        return services.authoring.from_idea(self.article_id, self.index)


@dataclass(frozen=True, slots=True)
class NextBlank(Command["ValidationReport"]):
    """The unit's cloze blanks the card writer's next candidate (saved as an edit)."""

    unit_id: int
    what: ClassVar[str] = "choosing the next blank"

    def handle(self, services: Services) -> ValidationReport:
        return services.authoring.next_blank(self.unit_id)


@dataclass(frozen=True, slots=True)
class Split(Command[int]):
    """The unit split in two at the break nearest its middle: the new second unit's id."""

    unit_id: int
    what: ClassVar[str] = "splitting the unit"

    def handle(self, services: Services) -> int:
        return services.authoring.split(self.unit_id)


@dataclass(frozen=True, slots=True)
class SetEvidence(Command["ValidationReport"]):
    """The unit's evidence becomes the selection, checked again."""

    unit_id: int
    spans: tuple[SelectedSpan, ...]
    what: ClassVar[str] = "changing the evidence"

    def handle(self, services: Services) -> ValidationReport:
        return services.authoring.set_evidence(self.unit_id, self.spans)
