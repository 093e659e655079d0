"""Curation use cases: confirm / reject / edit / trash / restore proposals (each undoable: core/services/undo.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from core.domain import (
    AnchorState,
    ArticleMemoryOutput,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
    StoredUnit,
    ValidationIssue,
    ValidationReport,
)
from core.domain.artifact import report_to_list
from core.domain.errors import MemoryRushError
from core.services.restate import Restated, restate
from core.storage import authoring as authoring_repo
from core.storage import curation as curation_repo
from core.storage import library as library_repo
from core.storage.browse import trash as browse_trash
from core.storage.db import write_transaction
from core.validation import validate

TRASH_DAYS = 30


def carry_kept(before: Sequence[ValidationIssue], report: ValidationReport) -> ValidationReport:
    """A re-check keeps the reasons given for the same issues (same code and message)."""
    reasons = {(i.code, i.message): i.kept for i in before if i.kept}
    if not reasons:
        return report
    return ValidationReport(
        tuple(replace(i, kept=reasons.get((i.code, i.message), "")) for i in report.issues)
    )


QUESTION_LOST = "claim_question_lost"  # an error `!` cannot keep (not a claim_contradicts_ code)


def restated(unit: StoredUnit, content: str, questions: Sequence[tuple[str, str, str]]) -> Restated:
    """The edit's questions with those it left as they were, and that were built from the
    unit's old content, asked of its new content (core/services/restate.py)."""
    stored = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    clean = [(q.strip(), a.strip(), k) for q, a, k in questions]
    return restate(unit.content.strip(), content.strip(), clean, stored)


class CannotAccept(MemoryRushError):
    """The unit has validation errors; fix them (edit) first."""


@dataclass(frozen=True, slots=True)
class Edited:
    """An edit saved: the validator's report on it (its errors block accepting), and `reasked`:
    the questions stored are not those the form held (asked again of the new content, or
    trimmed)."""

    report: ValidationReport
    reasked: bool


@dataclass
class CurationService:
    clock: Callable[[], int]

    def accept(self, unit_id: int) -> bool:
        unit = library_repo.unit(unit_id)
        if unit is None:
            return False
        if not unit.acceptable:
            codes = ", ".join(sorted({i.code for i in unit.issues if i.severity == "error"}))
            raise CannotAccept(f"unit {unit_id} has validation errors ({codes}); edit it first")
        return curation_repo.set_status([unit_id], "confirmed", "accept", self.clock()) == 1

    def reject(self, unit_id: int) -> bool:
        return curation_repo.set_status([unit_id], "rejected", "reject", self.clock()) == 1

    def accept_all_valid(self, article_id: int) -> int:
        """Accept every proposed, valid unit of one article. Returns how many."""
        ids = [u.id for u in library_repo.units(article_id, ["proposed"]) if u.acceptable]
        return curation_repo.set_status(ids, "confirmed", "accept", self.clock())

    def validate_edit(
        self,
        unit: StoredUnit,
        *,
        content: str,
        memory_type: str,
        tags: Sequence[str],
        questions: Sequence[tuple[str, str, str]],
    ) -> ValidationReport:
        """Re-validate an edited unit against its article's paragraphs (evidence unchanged),
        its questions as the edit will save them (`restated`)."""
        paragraphs = tuple(library_repo.paragraphs(unit.article_id))
        doc = SourceDocument("", "", "", paragraphs)
        candidate = MemoryUnit(content, memory_type, unit.evidence, tuple(tags), unit.confidence)
        asked = restated(unit, content, questions)
        output = ArticleMemoryOutput(
            "", (), (candidate,), tuple(RecallQuestion(q, a, 0, k) for q, a, k in asked.questions)
        )
        report = validate(output, doc, authored=True)
        lost = tuple(
            ValidationIssue(
                QUESTION_LOST,
                "the question asks about words the edit took out of the content: ask it again (b) or edit it (e)",
                f"recall_questions[{k}]",
            )
            for k in asked.lost
        )
        return ValidationReport(report.issues + lost) if lost else report

    def edit(
        self,
        unit_id: int,
        *,
        content: str,
        memory_type: str,
        tags: Sequence[str],
        questions: Sequence[tuple[str, str, str]],
    ) -> Edited:
        """Save an edit (even with issues: they are stored and block acceptance). When the
        content changes, the questions built from the old content ask about the new one
        (core/services/restate.py): cards teach what the unit says, and `reasked` says that the
        questions stored are not those given (the edit form's notice)."""
        unit = library_repo.unit(unit_id)
        if unit is None:
            raise MemoryRushError(f"unit {unit_id} does not exist")
        asked = restated(unit, content, questions).questions
        tags = [t.strip() for t in tags if t.strip()]
        report = carry_kept(
            unit.issues,
            self.validate_edit(unit, content=content, memory_type=memory_type, tags=tags, questions=asked),
        )
        stored = [(q.strip(), a.strip(), k) for q, a, k in asked]
        curation_repo.edit(
            unit_id,
            content=content.strip(),
            memory_type=memory_type,
            tags=tags,
            questions=stored,
            issues=report_to_list(report),
            now=self.clock(),
        )
        return Edited(report, reasked=stored != [tuple(q) for q in questions])

    def keep_anyway(self, unit_id: int, reason: str) -> bool:
        """Keep a unit whose words contradict its quote, with the reader's reason: the issue
        stays on the unit, marked kept, and no longer blocks accepting it. Undo takes it back."""
        unit = library_repo.unit(unit_id)
        reason = " ".join(reason.split())
        if unit is None or not reason:
            return False
        issues = tuple(replace(i, kept=reason) if i.keepable and not i.kept else i for i in unit.issues)
        if issues == unit.issues:
            return False
        return authoring_repo.set_issues(
            unit_id, report_to_list(ValidationReport(issues)), "keep_anyway", self.clock()
        )

    def trash(self, unit_id: int) -> bool:
        return curation_repo.trash(unit_id, self.clock())

    def restore(self, unit_id: int) -> bool:
        return curation_repo.restore(unit_id, self.clock())

    # --- units whose source changed (re-import, sync, reader upgrade) ----------------------

    def keep(self, unit_id: int) -> bool:
        """Keep a "source changed" unit as it is: its cards stay, its quote stays as history of
        the earlier text. Undo brings the question back."""
        unit = library_repo.unit(unit_id)
        if unit is None or not unit.source_changed:
            return False
        return curation_repo.set_anchor(unit_id, AnchorState.KEPT.value, "keep", self.clock())

    def retire(self, unit_id: int) -> bool:
        """Retire a "source changed" unit: to the trash (its cards leave the queue); undo or
        restore brings it back, and it stays marked source changed."""
        unit = library_repo.unit(unit_id)
        if unit is None or not unit.source_changed:
            return False
        return curation_repo.trash(unit_id, self.clock())

    def purge_expired_trash(self) -> int:
        """Delete what has been in the trash for TRASH_DAYS: units, then deleted articles (with
        anything left of theirs). Returns how many units went."""
        cutoff = self.clock() - TRASH_DAYS * 86400
        purged = curation_repo.purge_trash(cutoff)
        with write_transaction():
            browse_trash.purge_articles(cutoff)
        return purged

    def rates(self) -> list[dict[str, object]]:
        return curation_repo.curation_rates()


__all__ = ["CannotAccept", "CurationService", "Edited"]
