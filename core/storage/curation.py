"""Curation writes: accept / reject / edit / trash / restore / undo, each one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, cast

import peewee

from core.storage.db import translated, write_transaction
from core.storage.models import CurationEvent, Question, Unit
from core.storage.review import cards
from core.storage.search import index as search_index


def _snapshot(row: Unit) -> dict[str, Any]:
    return {
        "status": row.status,
        "content": row.content,
        "memory_type": row.memory_type,
        "tags_json": row.tags_json,
        "issues_json": row.issues_json,
        "edited": bool(row.edited),
        "low_confidence": bool(row.low_confidence),
        "trashed_at": row.trashed_at,
        "status_before_trash": row.status_before_trash,
        "anchor": row.anchor,
        "questions": [
            {"question": q.question, "answer": q.answer, "kind": q.kind, "position": q.position}
            for q in Question.select().where(Question.unit == row.id).order_by(Question.position)
        ],
    }


def _event(row: Unit, action: str, before: dict[str, Any], now: int) -> None:
    CurationEvent.create(
        unit=row.id,
        action=action,
        before_json=json.dumps(before, ensure_ascii=False),
        extractor=row.extractor,
        model=row.model,
        at=now,
    )


@translated
def set_status(unit_ids: Sequence[int], status: str, action: str, now: int) -> int:
    """Move units to a status (confirmed / rejected / proposed). Returns how many changed.

    Trashed units are left alone: they come back only through `restore`."""
    changed = 0
    with write_transaction():
        for unit_id in unit_ids:
            row = Unit.get_or_none(Unit.id == unit_id)
            if row is None or row.status in (status, "trashed"):
                continue
            before = _snapshot(row)
            row.status = status
            row.updated_at = now
            row.save()
            _event(row, action, before, now)
            if status == "confirmed":
                cards.ensure_cards(row.id, now)
            cards.on_unit_status(row.id, status, now)
            search_index.reindex_unit(row.id)
            changed += 1
    return changed


@translated
def edit(
    unit_id: int,
    *,
    content: str,
    memory_type: str,
    tags: Sequence[str],
    questions: Sequence[tuple[str, str, str]],
    issues: list[dict[str, str]],
    now: int,
) -> None:
    """Replace a unit's content, type, tags and questions (question, answer, kind)."""
    with write_transaction():
        row = Unit.get_by_id(unit_id)
        before = _snapshot(row)
        row.content = content
        row.memory_type = memory_type
        row.tags_json = json.dumps(list(tags), ensure_ascii=False)
        row.issues_json = json.dumps(issues, ensure_ascii=False)
        row.edited = True
        row.updated_at = now
        row.save()
        _replace_questions(row.id, [{"question": q, "answer": a, "kind": k} for q, a, k in questions])
        _event(row, "edit", before, now)
        if row.status == "confirmed":
            cards.ensure_cards(row.id, now)
        search_index.reindex_unit(row.id)


def _replace_questions(unit_id: int, questions: list[dict[str, Any]]) -> None:
    existing = list(Question.select().where(Question.unit == unit_id).order_by(Question.position))
    for pos, q in enumerate(questions):
        if pos < len(existing):
            row = existing[pos]
            if (row.question, row.answer, row.kind) != (q["question"], q["answer"], q["kind"]):
                row.question, row.answer, row.kind = q["question"], q["answer"], q["kind"]
                row.save()
        else:
            Question.create(
                unit=unit_id, position=pos, question=q["question"], answer=q["answer"], kind=q["kind"]
            )
    for row in existing[len(questions) :]:
        row.delete_instance(recursive=True)


@translated
def trash(unit_id: int, now: int) -> bool:
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None or row.status == "trashed":
            return False
        before = _snapshot(row)
        row.status_before_trash = row.status
        row.status = "trashed"
        row.trashed_at = now
        row.updated_at = now
        row.save()
        _event(row, "trash", before, now)
        cards.on_unit_status(row.id, "trashed", now)
        search_index.reindex_unit(row.id)
    return True


@translated
def restore(unit_id: int, now: int) -> bool:
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None or row.status != "trashed":
            return False
        before = _snapshot(row)
        row.status = row.status_before_trash or "proposed"
        row.status_before_trash = None
        row.trashed_at = None
        row.updated_at = now
        row.save()
        _event(row, "restore", before, now)
        cards.on_unit_status(row.id, row.status, now)
        search_index.reindex_unit(row.id)
    return True


@translated
def set_anchor(unit_id: int, anchor: str, action: str, now: int) -> bool:
    """Record the reader's decision on a unit whose source changed (keep: anchor "kept");
    undoable like every curation event. False when the unit is gone or already so."""
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None or row.anchor == anchor:
            return False
        before = _snapshot(row)
        row.anchor = anchor
        row.updated_at = now
        row.save()
        _event(row, action, before, now)
    return True


@translated
def purge_trash(older_than: int) -> int:
    """Delete units trashed before `older_than` (epoch). Returns how many."""
    with write_transaction():
        ids = [
            r.id
            for r in Unit.select(Unit.id).where((Unit.status == "trashed") & (Unit.trashed_at < older_than))
        ]
        for unit_id in ids:
            search_index.remove_unit(unit_id)
        if ids:
            Unit.delete().where(Unit.id.in_(ids)).execute()
    return len(ids)


@translated
def undo_last(now: int, article_id: int | None = None) -> int | None:
    """Undo the latest curation event (optionally within one article). Returns the unit id."""
    with write_transaction():
        q = CurationEvent.select().join(Unit).where(CurationEvent.undone == False)  # noqa: E712
        q = q.where(CurationEvent.action != "undo")
        if article_id is not None:
            q = q.where(Unit.article == article_id)
        event = q.order_by(CurationEvent.id.desc()).first()
        if event is None:
            return None
        before = json.loads(event.before_json)
        row = Unit.get_by_id(event.unit_id)
        row.status = before["status"]
        row.content = before["content"]
        row.memory_type = before["memory_type"]
        row.tags_json = before["tags_json"]
        row.issues_json = before["issues_json"]
        row.edited = before["edited"]
        row.low_confidence = before["low_confidence"]
        row.trashed_at = before["trashed_at"]
        row.status_before_trash = before["status_before_trash"]
        row.anchor = before.get("anchor", row.anchor)  # events written before anchors had none
        row.updated_at = now
        row.save()
        _replace_questions(row.id, before["questions"])
        event.undone = True
        event.save()
        cards.on_unit_status(row.id, row.status, now)
        search_index.reindex_unit(row.id)
        return int(row.id)


@translated
def curation_rates() -> list[dict[str, Any]]:
    """accept / edit / reject counts per extractor and model (undone events excluded)."""
    q = (
        CurationEvent.select(
            CurationEvent.extractor,
            CurationEvent.model,
            CurationEvent.action,
            peewee.fn.COUNT(CurationEvent.id),
        )
        .where(CurationEvent.undone == False)  # noqa: E712
        .group_by(CurationEvent.extractor, CurationEvent.model, CurationEvent.action)
    )
    rows: dict[tuple[str, str | None], dict[str, Any]] = {}
    counted = cast(Iterable[tuple[str, str | None, str, int]], q.tuples())
    for extractor, model, action, n in counted:
        entry = rows.setdefault((extractor, model), {"extractor": extractor, "model": model})
        entry[action] = n
    return list(rows.values())
