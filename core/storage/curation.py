"""Curation writes: accept / reject / edit / trash / restore, each one transaction, and their
undo (`put_back`, inside the undo service's transaction).

Each write appends a step to the one undo journal (core/storage/journal.py) and records, under
it, an event per unit with the unit as it was before (`snapshot`); `put_back` takes a step back.
The events of one action over several units (accept all valid, a split) share one journal entry,
and undo takes them back at once. A unit made
by the reader (core/storage/authoring.py) is recorded as it would be in the trash, so undoing
its making trashes it (restore brings it back: nothing is lost). The unit a split makes is not
the reader's work: undoing the split removes it with its cards (SPLIT_OFF), nothing is left in
the trash, and the library is as it was before the split.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, cast

import peewee

from core.domain.model import CurationUndo
from core.domain.undo import Kind, Scope
from core.storage import journal
from core.storage.browse import trash as trash_repo
from core.storage.db import db, write_transaction
from core.storage.errors import translated
from core.storage.models import CurationEvent, Evidence, Question, Unit
from core.storage.review import cards
from core.storage.rows import insert_row
from core.storage.search import index as search_index

SPLIT_OFF = "split_off"  # the event of the unit a split made: its undo removes the unit


@translated
def snapshot(
    row: Unit,
    questions: Sequence[tuple[str, str, str]] | None = None,
    evidence: Sequence[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The unit's row, its questions and its evidence: what undo puts back. `questions`
    (question, answer, kind) and `evidence` (paragraph id, quote): what the caller has just
    stored for it, in order (a new unit: two reads fewer on the save of a card of yours)."""
    if questions is not None and evidence is not None:
        return {
            **_row_snapshot(row),
            "questions": [
                {"question": q, "answer": a, "kind": k, "position": i}
                for i, (q, a, k) in enumerate(questions)
            ],
            "evidence": [{"paragraph_id": p, "quote": quote} for p, quote in evidence],
        }
    return {
        **_row_snapshot(row),
        "questions": [
            {"question": q.question, "answer": q.answer, "kind": q.kind, "position": q.position}
            for q in Question.select().where(Question.unit == row.id).order_by(Question.position)
        ],
        "evidence": [
            {"paragraph_id": e.paragraph_id, "quote": e.quote}
            for e in Evidence.select().where(Evidence.unit == row.id).order_by(Evidence.position)
        ],
    }


def _row_snapshot(row: Unit) -> dict[str, Any]:
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
    }


@translated
def open_step(action: str, now: int, article_id: int, scope: Scope = Scope.CURATION) -> int:
    """The journal entry of one curation step (its events, one per unit, are `record`ed under
    it), undone in `scope` (Triage and the Article; Review for a card you made there)."""
    return journal.append(Kind.CURATION, scope, action, now, article_id=article_id)


@translated
def record(
    row: Unit,
    action: str,
    before: dict[str, Any],
    now: int,
    entry_id: int | None = None,
    after: dict[str, Any] | None = None,
    scope: Scope = Scope.CURATION,
) -> int:
    """The event of one curation step on one unit, under journal entry `entry_id` (the entry
    shared by the units of one action; None: a new one, undone in `scope`), with the unit as the
    step left it (`after`: as_left's, when the caller has it in hand). Returns the entry's id."""
    if entry_id is None:
        entry_id = open_step(action, now, int(row.article_id), scope)
    before = {**before, "after": after if after is not None else as_left(row)}
    event = CurationEvent(
        unit=row.id,
        action=action,
        before_json=json.dumps(before, ensure_ascii=False),
        extractor=row.extractor,
        model=row.model,
        at=now,
        journal_id=entry_id,
    )
    insert_row(event)
    return entry_id


@translated
def set_status(unit_ids: Sequence[int], status: str, action: str, now: int) -> int:
    """Move units to a status (confirmed / rejected / proposed). Returns how many changed.

    Trashed units are left alone: they come back only through `restore`."""
    changed = 0
    entry_id = None  # one journal entry for the units of the action
    with write_transaction():
        for unit_id in unit_ids:
            row = Unit.get_or_none(Unit.id == unit_id)
            if row is None or row.status in (status, "trashed"):
                continue
            before = snapshot(row)
            row.status = status
            row.updated_at = now
            row.save()
            entry_id = record(row, action, before, now, entry_id)
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
        before = snapshot(row)
        row.content = content
        row.memory_type = memory_type
        row.tags_json = json.dumps(list(tags), ensure_ascii=False)
        row.issues_json = json.dumps(issues, ensure_ascii=False)
        row.edited = True
        row.updated_at = now
        row.save()
        replace_questions(row.id, [{"question": q, "answer": a, "kind": k} for q, a, k in questions])
        record(row, "edit", before, now)
        if row.status == "confirmed":
            cards.ensure_cards(row.id, now)
        search_index.reindex_unit(row.id)


@translated
def replace_questions(unit_id: int, questions: list[dict[str, Any]]) -> None:
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
        before = snapshot(row)
        row.status_before_trash = row.status
        row.status = "trashed"
        row.trashed_at = now
        row.updated_at = now
        row.save()
        record(row, "trash", before, now)
        cards.on_unit_status(row.id, "trashed", now)
        search_index.reindex_unit(row.id)
    return True


@translated
def restore(unit_id: int, now: int) -> bool:
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None or row.status != "trashed":
            return False
        before = snapshot(row)
        row.status = row.status_before_trash or "proposed"
        row.status_before_trash = None
        row.trashed_at = None
        row.updated_at = now
        row.save()
        record(row, "restore", before, now)
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
        before = snapshot(row)
        row.anchor = anchor
        row.updated_at = now
        row.save()
        record(row, action, before, now)
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
def as_left(row: Unit) -> dict[str, Any]:
    """What tells that a unit is still as a curation step left it: its row, questions and
    evidence (`snapshot`), and how often its cards were answered (an answer since changes it)."""
    state = snapshot(row)
    reps = cards_answered(int(row.id))
    return {**state, "reps": reps}


@translated
def cards_answered(unit_id: int) -> int:
    found = db.execute_sql("SELECT COALESCE(SUM(reps), 0) FROM card WHERE unit_id = ?", (unit_id,)).fetchone()
    return int(found[0])


@translated
def put_back(entry_id: int, now: int) -> CurationUndo | None:
    """Undo the curation step of journal entry `entry_id`, every unit of it (a batch at once),
    inside the caller's write transaction (core/services/undo.py), taking back its own change
    only: a unit changed since the step stays as it is (an answer, a Browse tag, a later edit are
    never erased), and the step is marked undone. None when none of its units is left (purged)."""
    if not db.in_transaction():  # a programming error: each statement would commit on its own
        raise RuntimeError("put_back writes inside the caller's write_transaction()")
    events = list(
        CurationEvent.select().where((CurationEvent.journal_id == entry_id) & (CurationEvent.undone == False))  # noqa: E712
    )
    journal.mark_undone(entry_id)
    if not events:
        return None
    left = 0
    for each in sorted(events, key=lambda e: -e.id):
        if not _put_back(each, now):
            left += 1
        elif each.action == SPLIT_OFF:  # put back in the trash: gone for good, cards and all
            trash_repo.purge_units([int(each.unit_id)])
    first = min(events, key=lambda e: e.id)
    action = str(first.action)
    if left == len(events):
        return CurationUndo(int(first.unit_id), changed_since=True, action=action)
    return CurationUndo(int(first.unit_id), left=left, action=action)


def _put_back(event: CurationEvent, now: int) -> bool:
    """The unit as it was before the event, if it is still as the event left it (True); else it
    stays as it is (False). Either way the event is done with."""
    before = json.loads(event.before_json)
    row = Unit.get_by_id(event.unit_id)
    event.undone = True
    event.save()
    after = before.get("after")
    if after is not None and as_left(row) != after:
        return False
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
    replace_questions(row.id, before["questions"])
    if "evidence" in before:  # events written before evidence could change have none
        replace_evidence(row.id, [(e["paragraph_id"], e["quote"]) for e in before["evidence"]])
    cards.on_unit_status(row.id, row.status, now)
    search_index.reindex_unit(row.id)
    return True


@translated
def replace_evidence(unit_id: int, spans: Sequence[tuple[str, str]]) -> None:
    """A unit's evidence becomes these (paragraph id, quote) spans, inside the caller's transaction."""
    Evidence.delete().where(Evidence.unit == unit_id).execute()
    if spans:
        Evidence.insert_many(
            [
                {"unit": unit_id, "position": j, "paragraph_id": p, "quote": q}
                for j, (p, q) in enumerate(spans)
            ]
        ).execute()


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
