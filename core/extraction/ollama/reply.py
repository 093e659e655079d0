"""Reading a model's reply: strict JSON parsing, dropping what the validator rejects, merging.

Nothing here trusts the reply. `parse_reply` raises `ReplyFault` for anything that is not one
JSON object with the contract's lists; `prune` keeps only units the validator passes against
the window's own paragraphs, and says what it dropped and why.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.domain import (
    ArticleMemoryOutput,
    CoreIdea,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
    ValidationReport,
)
from core.domain.artifact import output_from_dict
from core.text import normalize_for_match, sanitize
from core.validation import validate_raw

MAX_CORE_IDEAS = 7
DUPLICATE_CODES = frozenset({"duplicate_unit", "near_duplicate_unit"})


class ReplyFault(Exception):
    """The reply cannot be used at all; str() says why in a few words."""


def parse_reply(text: str) -> dict[str, Any]:
    """The reply as a dict, or ReplyFault (empty, fenced, invalid/truncated JSON, wrong shape)."""
    stripped = text.strip()
    if not stripped:
        raise ReplyFault("the reply was empty")
    if stripped.startswith("```"):
        raise ReplyFault("the reply was wrapped in a ``` code fence instead of plain JSON")
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise ReplyFault(
            f"the reply is not valid JSON ({exc.msg} at character {exc.pos}; truncated?)"
        ) from None
    if not isinstance(data, dict):
        raise ReplyFault(f"the reply is a JSON {type(data).__name__}, not an object")
    for key in ("memory_units", "recall_questions"):
        value = data.get(key)
        if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
            raise ReplyFault(f"the reply does not match the schema: {key} is not a list of objects")
    if not isinstance(data.get("summary", ""), str):
        raise ReplyFault("the reply does not match the schema: summary is not a string")
    ideas = data.get("core_ideas", [])
    if not isinstance(ideas, list) or not all(isinstance(x, dict) for x in ideas):
        raise ReplyFault("the reply does not match the schema: core_ideas is not a list of objects")
    return data


def issue_lines(report: ValidationReport, limit: int = 40, severity: str = "error") -> list[str]:
    lines = [f"{i.location}: {i.message} [{i.code}]" for i in report.issues if i.severity == severity]
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more"]
    return lines


@dataclass
class Pruned:
    data: dict[str, Any]
    dropped: list[dict[str, Any]] = field(default_factory=list)


def _errors_at(report: ValidationReport, prefix: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for issue in report.issues:
        index = issue.index_in(prefix)
        if issue.severity == "error" and index is not None:
            found.setdefault(index, []).append(issue.code)
    return found


def prune(data: dict[str, Any], document: SourceDocument, *, window: str = "") -> Pruned:
    """Drop invalid questions, units (and the questions that pointed at them) and core ideas.

    Repeats until the validator finds no error, so what is left is grounded and consistent.
    `document` holds only the paragraphs the window sent, so ids from elsewhere are unknown.
    """
    out = Pruned(dict(data))
    for _ in range(4):
        report = validate_raw(out.data, document)
        if report.ok:
            break
        units: list[Any] = list(out.data.get("memory_units") or [])
        questions: list[Any] = list(out.data.get("recall_questions") or [])
        ideas: list[Any] = list(out.data.get("core_ideas") or [])
        bad_q = _errors_at(report, "recall_questions")
        bad_u = {
            i: [c for c in codes if c != "no_question"]
            for i, codes in _errors_at(report, "memory_units").items()
        }
        bad_u = {i: c for i, c in bad_u.items() if c}
        asked = {q.get("memory_unit_index") for k, q in enumerate(questions) if k not in bad_q}
        for i in range(len(units)):
            if i not in bad_u and i not in asked:
                bad_u[i] = ["no_question"]
        for k in sorted(bad_q):
            out.dropped.append(_record("recall_question", questions[k].get("question"), bad_q[k], window))
        for i in sorted(bad_u):
            out.dropped.append(_record("memory_unit", units[i].get("content"), bad_u[i], window))
        bad_i = _errors_at(report, "core_ideas")
        for i in sorted(bad_i):
            out.dropped.append(_record("core_idea", ideas[i].get("idea"), bad_i[i], window))
        keep = [i for i in range(len(units)) if i not in bad_u]
        new_index = {old: new for new, old in enumerate(keep)}
        kept_q = []
        for k, q in enumerate(questions):
            if k in bad_q:
                continue
            target = q.get("memory_unit_index")
            if target in new_index:
                kept_q.append({**q, "memory_unit_index": new_index[target]})
        out.data = {
            **out.data,
            "memory_units": [units[i] for i in keep],
            "recall_questions": kept_q,
            "core_ideas": [x for i, x in enumerate(ideas) if i not in bad_i],
        }
    return out


def _record(kind: str, text: Any, codes: Sequence[str], window: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": kind, "text": str(text or "")[:300], "reasons": sorted(set(codes))}
    if window:
        entry["window"] = window
    return entry


def to_output(data: dict[str, Any]) -> ArticleMemoryOutput:
    """A pruned (validated) dict as domain objects; the model's own words lose control characters.

    Quotes are left exactly as given: the validator has matched them against the article.
    """
    out = output_from_dict(data)
    return ArticleMemoryOutput(
        _clean(out.summary),
        tuple(
            replace(c, idea=_clean(c.idea), why_it_matters=_clean(c.why_it_matters)) for c in out.core_ideas
        ),
        tuple(
            replace(u, content=_clean(u.content), tags=tuple(_clean(t) for t in u.tags))
            for u in out.memory_units
        ),
        tuple(
            replace(q, question=_clean(q.question), expected_answer=_clean(q.expected_answer))
            for q in out.recall_questions
        ),
    )


def _clean(text: str) -> str:
    return sanitize(text).strip()


def merge(parts: Sequence[ArticleMemoryOutput]) -> tuple[ArticleMemoryOutput, list[dict[str, Any]]]:
    """Concatenate window outputs; repeated units (exact or near) are dropped, with a record."""
    units: list[MemoryUnit] = []
    questions: list[RecallQuestion] = []
    ideas: list[CoreIdea] = []
    for part in parts:
        offset = len(units)
        units.extend(part.memory_units)
        questions.extend(
            replace(q, memory_unit_index=q.memory_unit_index + offset) for q in part.recall_questions
        )
        ideas.extend(part.core_ideas)
    summary = " ".join(p.summary.strip() for p in parts if p.summary.strip())
    merged = ArticleMemoryOutput(summary, tuple(ideas), tuple(units), tuple(questions))
    if len(parts) <= 1:
        return merged, []
    report = validate_raw(merged, SourceDocument("", "", "", ()))
    dupes = {i for i, codes in _errors_at(report, "memory_units").items() if DUPLICATE_CODES & set(codes)}
    dropped = [_record("memory_unit", units[i].content, ["duplicate_unit"], "") for i in sorted(dupes)]
    keep = [i for i in range(len(units)) if i not in dupes]
    new_index = {old: new for new, old in enumerate(keep)}
    seen_ideas: set[str] = set()
    unique_ideas = []
    for idea in sorted(ideas, key=lambda x: -x.salience_score):
        key = normalize_for_match(idea.idea)
        if key not in seen_ideas:
            seen_ideas.add(key)
            unique_ideas.append(idea)
    return (
        ArticleMemoryOutput(
            summary,
            tuple(unique_ideas[:MAX_CORE_IDEAS]),
            tuple(units[i] for i in keep),
            tuple(
                replace(q, memory_unit_index=new_index[q.memory_unit_index])
                for q in questions
                if q.memory_unit_index in new_index
            ),
        ),
        dropped,
    )
