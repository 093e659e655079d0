"""Undo, in the domain's words: where an undo is asked (`Scope`), whose put-back takes an entry
back (`Kind`) and what it did.

The library keeps one undo journal (core/storage/journal.py); an undo takes the newest entry
of its scope not yet undone. A scope is a family of screens, not the whole library: u in Review
takes back an answer, never a Browse action of 100k cards out of sight; Triage and the Article
screen take back the steps of their article; Browse, Trash and Schedule share their bulk actions.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the types load with core.domain.model: not on the way to the first frame
    from typing import TypeAlias

    from core.domain.browse import BulkUndo
    from core.domain.model import CurationUndo
    from core.domain.review import UndoResult


class Scope(StrEnum):
    """Where an undo is asked: it takes back the entries written there (the entry's scope)."""

    REVIEW = "review"  # Review: answers, suspend, bury, pin, postpone, and cards you made there
    CURATION = "curation"  # Triage, the Article screen: a unit's steps, cards you made there
    BULK = "bulk"  # Browse, Trash, Schedule: actions on many rows, a setting with them


class Kind(StrEnum):
    """What an entry's details are, so whose put-back takes it back (the entry's kind)."""

    REVIEW = "review"  # card rows before and after (undo_entry)
    CURATION = "curation"  # one event per unit, the unit before and after (curation_event)
    BULK = "bulk"  # snapshots of many rows, a setting (bulk_journal, bulk_card, bulk_unit)


if TYPE_CHECKING:
    # What an undo did, by kind: the review action (its card shown again), the curation step
    # (its unit), the bulk action (how many rows went back, how many were left as changed since).
    Undone: TypeAlias = UndoResult | CurationUndo | BulkUndo
