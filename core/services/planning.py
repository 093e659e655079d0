"""Which units of an extraction are stored, auto-accepted or parked: the plan an import (and a
reimport's new paragraphs) stores by. Pure: reads the artifact's issues and the settings."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.domain import ProcessingArtifact, ValidationIssue
from core.host.config import Config
from core.storage.writes import NewUnits

# Issues that make a unit ungrounded (or empty): such a unit is never stored as a proposal.
GROUNDING_CODES = frozenset(
    {
        "unknown_paragraph",
        "quote_not_found",
        "no_evidence",
        "empty_quote",
        "non_prose_evidence",
        "empty_content",
        "unknown_type",
        "malformed",
    }
)


def issues_by_unit(artifact: ProcessingArtifact) -> dict[int, list[ValidationIssue]]:
    """Validation issues per memory unit index. A question's issues (empty question or answer,
    unknown kind) belong to the unit it asks about: that unit cannot be accepted until fixed."""
    questions = artifact.output.recall_questions
    per_unit: dict[int, list[ValidationIssue]] = {}
    for issue in artifact.validation_report.issues:
        idx = issue.unit_index
        qi = issue.question_index
        if idx is None and qi is not None and 0 <= qi < len(questions):
            idx = questions[qi].memory_unit_index
        if idx is not None:
            per_unit.setdefault(idx, []).append(issue)
    return per_unit


@dataclass(frozen=True, slots=True)
class Plan:
    artifact: ProcessingArtifact
    keep: list[int]
    issues: dict[int, list[ValidationIssue]]
    auto: set[int]
    low: set[int]
    dropped: int

    def new_units(self) -> NewUnits:
        """What storage writes of the plan (core.storage.writes.insert_output)."""
        return NewUnits(self.artifact, self.keep, self.issues, frozenset(self.auto), frozenset(self.low))


def plan(artifact: ProcessingArtifact, config: Config) -> Plan:
    """Which units to store (grounded), auto-accept (confident and valid) and park (low)."""
    per_unit = issues_by_unit(artifact)
    units = artifact.output.memory_units
    keep: list[int] = []
    dropped: list[dict[str, object]] = []
    for i, unit in enumerate(units):
        codes = sorted({x.code for x in per_unit.get(i, []) if x.code in GROUNDING_CODES})
        if codes:
            dropped.append({"index": i, "content": unit.content, "reason": ", ".join(codes)})
        else:
            keep.append(i)
    auto: set[int] = set()
    low: set[int] = set()
    for i in keep:
        valid = not any(x.severity == "error" for x in per_unit.get(i, []))
        conf = units[i].confidence
        if config.auto_accept_threshold > 0 and valid and conf >= config.auto_accept_threshold:
            auto.add(i)
        elif config.low_confidence_floor > 0 and conf < config.low_confidence_floor:
            low.add(i)
    if dropped:
        artifact = replace(artifact, dropped=(*artifact.dropped, *dropped))
    return Plan(artifact, keep, per_unit, auto, low, len(dropped))
