"""A known source whose text changed: its article updated in place (import, reimport, sync).

When words changed, the new or changed paragraphs are extracted for proposals first (outside
the write: a model may take minutes), read with the article around them (SourceDocument's
`propose_from`: a paragraph alone loses the topic terms the card writer asks by). Then, in one
transaction, the units are re-anchored (core.services.reanchor), a proposal that repeats a
unit the article keeps (the validator's duplicate rule: the same text, or nearly) is dropped,
and storage writes the result (core.storage.revision.revise_article): a reverted edit or a
reworded sentence does not propose what the reader already has. A unit whose quote is lost
does not count: a proposal made from the corrected sentence ("in 1886" where a unit says
"in 1885") is what the reader wants beside the flagged unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.domain import (
    ArticleMemoryOutput,
    ImportOutcome,
    MemoryUnit,
    ProcessingArtifact,
    SourceDocument,
    StoredUnit,
)
from core.host.config import Config
from core.services.planning import Plan, plan
from core.services.reanchor import reanchored, still_anchored
from core.storage import library as library_repo
from core.storage import revision
from core.storage.db import write_transaction

if TYPE_CHECKING:
    from core.extraction.base import Extractor

# the validator's codes for a unit that repeats another (core/validation/evidence.py)
REPEAT_CODES = frozenset({"duplicate_unit", "near_duplicate_unit"})


def revise(
    path: Path,
    article_id: int,
    document: SourceDocument,
    extractor: Extractor,
    reader_version: int,
    *,
    config: Config,
    now: int,
) -> ImportOutcome:
    """Update a known article in place: paragraphs replaced, units re-anchored, and (when the
    words changed) proposals for the new or changed paragraphs."""
    from core.services.pipeline import run_extraction, without_count_notice
    from core.validation.anchor import Reanchor

    finder = Reanchor(library_repo.paragraphs(article_id), document.paragraphs)
    proposals = None
    if (
        library_repo.existing_article_id(document.document_id) is None
        and revision.content_hash_of(article_id) != document.content_hash
    ):
        fresh = frozenset(p.paragraph_id for p in document.paragraphs if p.index not in finder.unchanged)
        if fresh:
            # the whole article, proposals from the new paragraphs only: alone, a paragraph
            # loses what its sentences point back to and the article's topic terms, by which
            # the card writer finds what to ask (issue 32: a new paragraph got no proposal)
            artifact = run_extraction(replace(document, propose_from=fresh), extractor)
            proposals = plan(without_count_notice(only_from(artifact, fresh)), config)
    with write_transaction():  # the units re-anchored are the units as this write finds them
        moves, units = reanchored(article_id, document, finder)
        new_units = None
        if proposals is not None:
            new_units = without_repeats(proposals, still_anchored(moves, units), document).new_units()
        done = revision.revise_article(
            article_id, document, moves, now=now, reader_version=reader_version, new_units=new_units
        )
    return ImportOutcome(str(path), "new_version", revision_message(done), article_id, done.added)


def only_from(artifact: ProcessingArtifact, fresh: frozenset[str]) -> ProcessingArtifact:
    """The artifact without the units that cite a paragraph outside `fresh` (an extractor that
    does not read `propose_from` proposed them), their questions re-indexed."""
    from core.validation import validate

    units = artifact.output.memory_units
    keep = [i for i, u in enumerate(units) if all(e.paragraph_id in fresh for e in u.evidence)]
    if len(keep) == len(units):
        return artifact
    index = {old: new for new, old in enumerate(keep)}
    questions = tuple(
        replace(q, memory_unit_index=index[q.memory_unit_index])
        for q in artifact.output.recall_questions
        if q.memory_unit_index in index
    )
    output = replace(artifact.output, memory_units=tuple(units[i] for i in keep), recall_questions=questions)
    return replace(artifact, output=output, validation_report=validate(output, artifact.document))


def without_repeats(plan: Plan, existing: Sequence[StoredUnit], document: SourceDocument) -> Plan:
    """The new proposals without those that repeat one of `existing` (any status: a rejected
    unit is not proposed again), by the validator's duplicate rule."""
    from core.validation import validate

    if not plan.keep or not existing:
        return plan
    units = plan.artifact.output.memory_units
    old = tuple(MemoryUnit(u.content, u.memory_type, u.evidence, u.tags, u.confidence) for u in existing)
    repeats: set[int] = set()
    for i in plan.keep:  # one at a time: only a repeat of an existing unit counts here
        report = validate(ArticleMemoryOutput("", (), (*old, units[i]), ()), document)
        if any(x.code in REPEAT_CODES and x.unit_index == len(old) for x in report.issues):
            repeats.add(i)
    if not repeats:
        return plan
    dropped = [
        {"index": i, "content": units[i].content, "reason": "repeats a unit the article already has"}
        for i in sorted(repeats)
    ]
    artifact = replace(plan.artifact, dropped=(*plan.artifact.dropped, *dropped))
    keep = [i for i in plan.keep if i not in repeats]
    return Plan(
        artifact, keep, plan.issues, plan.auto - repeats, plan.low - repeats, plan.dropped + len(repeats)
    )


def revision_message(done: revision.Revised) -> str:
    """What an in-place update did, for the import report."""
    parts = [
        f"updated in place (version {done.version}): {done.paragraphs_changed} paragraphs new or changed"
    ]
    moved = done.kept + len(done.changed)
    if moved:
        parts.append(
            f"{done.kept} of {moved} units found again"
            + (f" ({done.fuzzy} with reworded quotes)" if done.fuzzy else "")
        )
    if done.changed:
        parts.append(f"{len(done.changed)} marked source changed (keep or retire them in Triage)")
    if done.added:
        parts.append(f"{done.added} new proposals")
    return "; ".join(parts)
