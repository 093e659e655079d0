"""Writes for units the reader makes or reshapes: a new unit (made from a selection, or the
second half of a split), a unit's evidence re-picked, an issue kept with a reason. Each is one
transaction and records curation events (core/storage/curation.py), so undo takes it back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from core.domain.undo import Scope
from core.storage import curation
from core.storage.db import db, write_transaction
from core.storage.errors import translated
from core.storage.fields import gate
from core.storage.models import Evidence, Question, Unit
from core.storage.review import cards
from core.storage.rows import insert_row
from core.storage.search import index as search_index


@dataclass(frozen=True, slots=True)
class NewUnit:
    """A unit to store: its words, evidence (paragraph id, quote) and questions (question,
    answer, kind), its issues as stored, and who made it (`extractor`: "reader" for yours)."""

    content: str
    memory_type: str
    tags: tuple[str, ...]
    evidence: tuple[tuple[str, str], ...]
    questions: tuple[tuple[str, str, str], ...]
    issues: tuple[dict[str, str], ...]
    extractor: str
    status: str
    confidence: float = 1.0
    model: str | None = None
    artifact: int | None = None


@translated
def insert_unit(
    article_id: int, unit: NewUnit, now: int, entry_id: int | None = None, *, action: str = "make",
    scope: Scope = Scope.CURATION,
) -> int:  # fmt: skip
    """Inside the caller's write_transaction (the service that checked the card owns it): the
    row, its evidence and questions, its cards when confirmed, its search entry, and a "make"
    event whose before is the unit in the trash (undo trashes it; a split's SPLIT_OFF event:
    undo removes it, curation.put_back), under journal entry `entry_id` (None: its own, undone
    in `scope`: where the card was made).

    Plain parameterised statements, one a table (executemany for evidence and questions),
    nothing of what is written read back: ~9 statements where peewee's builder, a replace of
    evidence and questions a new unit has none of, and the re-reads of the card and search
    writers took 33 and most of the save's 7 ms (bench/bench_tui.py, "c -> cloze saved")."""
    if not db.in_transaction():  # a programming error: each statement would commit on its own
        raise RuntimeError("insert_unit writes inside the caller's write_transaction()")
    con = db.connection()
    (position,) = con.execute(
        "SELECT COALESCE(MAX(position), -1) + 1 FROM unit WHERE article_id = ?", (article_id,)
    ).fetchone()
    row = Unit(
        article=article_id,
        artifact=unit.artifact,
        position=position,
        content=unit.content,
        memory_type=unit.memory_type,
        tags_json=json.dumps(list(unit.tags), ensure_ascii=False),
        confidence=unit.confidence,
        status=unit.status,
        issues_json=json.dumps(list(unit.issues), ensure_ascii=False),
        extractor=unit.extractor,
        model=unit.model,
        created_at=now,
        updated_at=now,
    )
    unit_id = insert_row(row)
    con.executemany(  # raw statements: the store gate by hand (core/storage/fields.py)
        "INSERT INTO evidence (unit_id, position, paragraph_id, quote) VALUES (?, ?, ?, ?)",
        [(unit_id, i, p, gate(Evidence.quote, q)) for i, (p, q) in enumerate(unit.evidence)],
    )
    con.executemany(
        "INSERT INTO question (unit_id, position, question, answer, kind) VALUES (?, ?, ?, ?, ?)",
        [
            (unit_id, i, gate(Question.question, q), gate(Question.answer, a), k)
            for i, (q, a, k) in enumerate(unit.questions)
        ],
    )
    made = curation.snapshot(row, unit.questions, unit.evidence)
    trashed = {**made, "status": "trashed", "status_before_trash": unit.status, "trashed_at": now}
    curation.record(
        row, action, trashed, now, entry_id, {**made, "reps": 0}, scope
    )  # no card answered yet  # no card answered yet
    if unit.status == "confirmed":
        cards.create_cards(unit_id, now, active=True)
    asked = [(q, a) for q, a, _ in unit.questions]
    search_index.index_new_unit(unit_id, search_index.unit_words(unit.content, row.tags_json, asked))
    return unit_id


@translated
def split(unit_id: int, first: NewUnit, second: NewUnit, now: int) -> int:
    """The unit becomes `first`, and `second` is stored beside it, as one undoable batch.
    Returns the new unit's id."""
    with write_transaction():
        row = Unit.get_by_id(unit_id)
        before = curation.snapshot(row)
        row.content = first.content
        row.issues_json = json.dumps(list(first.issues), ensure_ascii=False)
        row.edited = True
        row.updated_at = now
        row.save()
        curation.replace_questions(
            row.id, [{"question": q, "answer": a, "kind": k} for q, a, k in first.questions]
        )
        entry_id = curation.record(row, "split", before, now)
        if row.status == "confirmed":
            cards.ensure_cards(row.id, now)
        search_index.reindex_unit(row.id)
        return insert_unit(int(row.article_id), second, now, entry_id, action=curation.SPLIT_OFF)


@translated
def set_evidence(
    unit_id: int, evidence: Sequence[tuple[str, str]], issues: Sequence[dict[str, str]], now: int
) -> bool:
    """The unit's evidence becomes `evidence` (its issues re-checked): an undoable "evidence" step."""
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None:
            return False
        before = curation.snapshot(row)
        curation.replace_evidence(row.id, evidence)
        row.issues_json = json.dumps(list(issues), ensure_ascii=False)
        row.edited = True
        row.updated_at = now
        row.save()
        curation.record(row, "evidence", before, now)
        search_index.reindex_unit(row.id)
    return True


@translated
def set_issues(unit_id: int, issues: Sequence[dict[str, str]], action: str, now: int) -> bool:
    """The unit's stored issues become `issues` (an issue kept with a reason): an undoable step."""
    with write_transaction():
        row = Unit.get_or_none(Unit.id == unit_id)
        if row is None:
            return False
        before = curation.snapshot(row)
        row.issues_json = json.dumps(list(issues), ensure_ascii=False)
        row.updated_at = now
        row.save()
        curation.record(row, action, before, now)
    return True
