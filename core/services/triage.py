"""Triage's queue as a use case: which unit the reader decides next.

Three lists: the proposals in reading order, without those parked below the confidence floor;
the low-confidence list, every proposal least confident first (the parked ones lead it, so it
is never empty while proposals wait); and the units whose source changed (proposed, confirmed
or rejected: a retired one is decided). Units the reader skipped come after the others, then
the list starts over with them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from core.domain import StoredUnit
from core.services.library import LibraryService

TriageList = Literal["proposals", "low", "changed"]
CHANGED_STATUSES = ["proposed", "confirmed", "rejected"]  # a retired (trashed) one is decided


@dataclass
class TriageService:
    library: LibraryService

    def next_unit(
        self,
        article_id: int | None,
        which: TriageList,
        skipped: Collection[int] = (),
        prefer: int | None = None,
    ) -> tuple[StoredUnit | None, bool]:
        """The unit to show next (`prefer` when it is still on the list), and whether the
        skipped ones were started over (the caller forgets its skips then)."""
        unit = self.library.unit(prefer) if prefer is not None else None
        if unit is not None and self.belongs(unit, which):
            return unit, False
        batch = self._queued(article_id, which, len(skipped) + 1)
        unit = next((u for u in batch if u.id not in skipped), None)
        if unit is None and skipped:
            batch = self._queued(article_id, which, 1)
            return (batch[0] if batch else None), True
        return unit, False

    @staticmethod
    def belongs(unit: StoredUnit, which: TriageList) -> bool:
        if which == "changed":
            return unit.source_changed and unit.status in CHANGED_STATUSES
        return unit.status == "proposed"

    def changed_waiting(self) -> int:
        """Units whose source changed, waiting for a decision (Triage's `c` list)."""
        return self.library.unit_count(source_changed=True)

    def _queued(self, article_id: int | None, which: TriageList, limit: int) -> list[StoredUnit]:
        if which == "changed":
            return self.library.units(article_id, CHANGED_STATUSES, limit=limit, source_changed=True)
        low = which == "low"
        return self.library.units(
            article_id, ["proposed"], None, None if low else False, limit, least_confident_first=low
        )
