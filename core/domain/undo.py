"""Undo, in the domain's words: whose put-back an undo asks for (`Scope`) and what it did.

The library keeps one undo journal (core/storage/journal.py); an undo takes the newest entry
of its scope not yet undone. A scope is a family of screens, not the whole library: u in Review
takes back an answer, never a Browse action of 100k cards out of sight; Triage and the Article
screen take back the steps of their article; Browse, Trash and Schedule share their bulk actions.
"""

from __future__ import annotations

from enum import StrEnum

from core.domain.browse import BulkUndo
from core.domain.model import CurationUndo
from core.domain.review import UndoResult


class Scope(StrEnum):
    """Where an undo is asked, and whose entries it takes back (stored as the entry's kind)."""

    REVIEW = "review"  # Review: answers, suspend, bury, pin, postpone
    CURATION = "curation"  # Triage, the Article screen, cards you made: a unit's steps
    BULK = "bulk"  # Browse, Trash, Schedule: actions on many rows, a setting with them


# What an undo did, by scope: the review action (its card shown again), the curation step (its
# unit), the bulk action (how many rows went back, how many were left as changed since).
Undone = UndoResult | CurationUndo | BulkUndo
