"""Search's one write: a hit opened is remembered (a small ranking signal, core/services/search)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.services.commands import Command

if TYPE_CHECKING:
    from core.domain.search import SearchHit
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class RecordOpen(Command[None]):
    """Remember that `hit` was opened (its paragraph and unit rank a little higher after)."""

    hit: SearchHit
    what: ClassVar[str] = "remembering the opened search hit"

    def handle(self, services: Services) -> None:
        services.search.record_open(self.hit)
