"""One undo journal (issue 31): every undoable write appends an entry in its own transaction,
and undo in each scope (Review; Triage and the Article; Browse, Trash and Schedule) is that
journal read backwards. Old pending undos (a library or a library file from before schema 12)
are given their entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from export_support import as_older
from test_review_support import q

from core.domain import StoredUnit
from core.domain.browse import BulkAction, Selection
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services
from core.services.export.library_json import export_json, import_library
from core.storage import journal
from core.storage.browse.journal import JOURNAL_KEEP
from core.storage.db import db, write_transaction
from core.storage.review.writes import UNDO_KEEP

TEXT = """Spaced repetition schedules each review just before you would forget it.

The forgetting curve was described by Hermann Ebbinghaus in 1885.

Retrieval practice strengthens memory more than rereading does.
"""


def _import(services: Services, folder: Path, name: str) -> list[StoredUnit]:
    path = folder / name
    path.write_text(TEXT, encoding="utf-8")
    [outcome] = services.library.import_paths([path], extractor="placeholder")
    return services.library.units(outcome.article_id)


@pytest.fixture
def units(services: Services, tmp_path: Path) -> list[StoredUnit]:
    return _import(services, tmp_path, "a.txt")


def _entries() -> list[tuple[object, ...]]:
    return q("SELECT kind, action, undone FROM journal ORDER BY id")


def test_every_kind_of_write_appends_to_the_one_journal_and_each_scope_reads_its_own_backwards(
    services: Services, units: list[StoredUnit]
) -> None:
    everything = services.browse.parse("").filter
    assert services.browse.act(BulkAction.TAG, Selection(everything), tag="memory").units == 3
    services.curation.accept(units[0].id)
    services.curation.accept(units[1].id)
    card = services.review.cards_of_unit(units[0].id)[0].id
    services.review.suspend(card)
    assert _entries() == [
        ("bulk", "tag", 0),
        ("curation", "accept", 0),
        ("curation", "accept", 0),
        ("review", "suspend", 0),
    ]
    # u in Triage takes back the newest curation step, not the newer review or bulk actions
    step = services.undo.undo(Scope.CURATION)
    assert step is not None and step.unit_id == units[1].id and not step.changed_since
    review = services.undo.undo(Scope.REVIEW)
    assert review is not None and review.action == "suspend" and review.card_id == card
    bulk = services.undo.undo(Scope.BULK)
    assert bulk is not None and bulk.action == "tag" and bulk.units == 3
    # the review entry goes with its details; the others stay, marked undone
    assert _entries() == [("bulk", "tag", 1), ("curation", "accept", 0), ("curation", "accept", 1)]
    assert services.undo.can_undo(Scope.CURATION)
    assert not services.undo.can_undo(Scope.REVIEW) and not services.undo.can_undo(Scope.BULK)
    assert services.undo.undo(Scope.BULK) is None


def test_triage_undoes_the_steps_of_its_article_only(
    services: Services, units: list[StoredUnit], tmp_path: Path
) -> None:
    other = _import(services, tmp_path, "b.txt")
    services.curation.reject(units[0].id)
    services.curation.reject(other[0].id)  # newer, in another article
    step = services.undo.undo(Scope.CURATION, units[0].article_id)
    assert step is not None and step.unit_id == units[0].id
    assert services.library.unit(other[0].id).status == "rejected"  # type: ignore[union-attr]
    assert not services.undo.can_undo(Scope.CURATION, units[0].article_id)  # its article's: none left
    assert services.undo.can_undo(Scope.CURATION, other[0].article_id)


def test_a_step_whose_unit_was_purged_since_is_passed_over(
    services: Services, units: list[StoredUnit]
) -> None:
    services.curation.reject(units[0].id)
    services.curation.trash(units[1].id)
    assert services.browse.purge([units[1].id]) == 1  # the trashed unit gone for good
    step = services.undo.undo(Scope.CURATION)
    assert step is not None and step.unit_id == units[0].id  # the step before it
    assert q("SELECT undone FROM journal WHERE kind = 'curation' ORDER BY id") == [(1,), (1,)]


def test_the_journal_keeps_no_entry_whose_details_were_pruned(
    services: Services, units: list[StoredUnit]
) -> None:
    services.curation.accept(units[0].id)
    card = services.review.cards_of_unit(units[0].id)[0].id
    for _ in range((UNDO_KEEP + 60) // 2):
        services.review.suspend(card)
        services.review.unsuspend(card)
    reviews = q("SELECT COUNT(*) FROM journal WHERE kind = 'review'")[0][0]
    assert reviews == q("SELECT COUNT(*) FROM undo_entry")[0][0] < UNDO_KEEP + 60
    everything = services.browse.parse("").filter
    for i in range(JOURNAL_KEEP + 3):
        services.browse.act(BulkAction.SUSPEND if i % 2 == 0 else BulkAction.UNSUSPEND, Selection(everything))
    assert q("SELECT COUNT(*) FROM journal WHERE kind = 'bulk'") == [(JOURNAL_KEEP,)]
    assert q("SELECT COUNT(*) FROM bulk_journal") == [(JOURNAL_KEEP,)]


def _as_before_schema_12() -> None:
    """The library as the old code left it: details without entries, a batch by its key."""
    with write_transaction():
        db.execute_sql("UPDATE undo_entry SET journal_id = NULL")
        db.execute_sql("UPDATE bulk_journal SET journal_id = NULL")
        for event_id, before, at, entry in q("SELECT id, before_json, at, journal_id FROM curation_event"):
            batch = {**json.loads(str(before)), "batch": f"accept-{at}-{entry}"}
            db.execute_sql(
                "UPDATE curation_event SET journal_id = NULL, before_json = ? WHERE id = ?",
                (json.dumps(batch), event_id),
            )
        db.execute_sql("DELETE FROM journal")


def test_old_pending_undos_are_given_their_entries_a_batch_one(
    services: Services, units: list[StoredUnit]
) -> None:
    assert services.curation.accept_all_valid(units[0].article_id) == 3
    card = services.review.cards_of_unit(units[0].id)[0].id
    services.review.suspend(card)
    services.review.unsuspend(card)
    _as_before_schema_12()
    assert not services.undo.can_undo(Scope.CURATION)
    with write_transaction():
        assert journal.adopt(db) == 3  # two review actions, one batch of three accepts
    assert services.undo.undo(Scope.REVIEW).action == "unsuspend"  # type: ignore[union-attr]
    step = services.undo.undo(Scope.CURATION)
    assert step is not None and not step.changed_since and step.left == 0
    assert {services.library.unit(u.id).status for u in units} == {"proposed"}  # type: ignore[union-attr]


def test_a_library_file_from_before_schema_12_keeps_its_pending_undos(
    services: Services, units: list[StoredUnit], clock: FixedClock, tmp_path: Path
) -> None:
    services.curation.accept(units[0].id)
    everything = services.browse.parse("").filter
    assert services.browse.act(BulkAction.SUSPEND, Selection(everything)).cards > 0
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=services.config)
    services.close()
    details = {table: {"journal_id"} for table in ("undo_entry", "curation_event", "bulk_journal")}
    data = as_older(json.loads(out.read_text(encoding="utf-8")), 11, ["journal"], details)
    old = tmp_path / "schema11.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    fresh = open_services(tmp_path / "fresh", clock=clock)
    try:
        import_library(old)
        done = fresh.undo.undo(Scope.BULK)
        assert done is not None and done.action == "suspend" and done.cards > 0
        assert q("SELECT COUNT(*) FROM card WHERE suspended = 1") == [(0,)]
        step = fresh.undo.undo(Scope.CURATION)
        assert step is not None and step.unit_id == units[0].id
    finally:
        fresh.close()


def test_a_library_file_without_its_journal_rows_keeps_each_undo_apart(
    services: Services, units: list[StoredUnit], clock: FixedClock, tmp_path: Path
) -> None:
    """A schema-12 file whose details name journal entries the file does not hold: they get
    entries of their own on import. Before, the next action took the id they named, and one u
    put back both (the old accept with the new reject)."""
    services.curation.accept(units[0].id)
    card = services.review.cards_of_unit(units[0].id)[0].id
    services.review.suspend(card)
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=services.config)
    services.close()
    data = json.loads(out.read_text(encoding="utf-8"))
    data["tables"]["journal"]["rows"] = []  # the details keep their journal_id
    broken = tmp_path / "no-journal.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    fresh = open_services(tmp_path / "fresh", clock=clock)
    try:
        import_library(broken)
        fresh.curation.reject(units[1].id)
        step = fresh.undo.undo(Scope.CURATION)
        assert step is not None and (step.unit_id, step.action) == (units[1].id, "reject")
        assert fresh.library.unit(units[0].id).status == "confirmed"  # type: ignore[union-attr]
        assert fresh.library.unit(units[1].id).status == "proposed"  # type: ignore[union-attr]
        again = fresh.undo.undo(Scope.CURATION)
        assert again is not None and (again.unit_id, again.action) == (units[0].id, "accept")
        suspended = fresh.undo.undo(Scope.REVIEW)
        assert suspended is not None and q("SELECT suspended FROM card WHERE id = ?", card) == [(0,)]
    finally:
        fresh.close()


def test_an_entry_of_an_unknown_kind_is_passed_over(services: Services, units: list[StoredUnit]) -> None:
    """A library file may hold an entry no release writes (`kind` is a string in the file): u
    passes over it to the one before, instead of ending the app with a ValueError."""
    services.curation.accept(units[0].id)
    with write_transaction():
        journal.append(journal.Kind.CURATION, Scope.CURATION, "accept", 0)
        db.execute_sql("UPDATE journal SET kind = 'Review' WHERE id = (SELECT MAX(id) FROM journal)")
    step = services.undo.undo(Scope.CURATION)
    assert step is not None and (step.unit_id, step.action) == (units[0].id, "accept")
    assert q("SELECT kind, undone FROM journal ORDER BY id") == [("curation", 1), ("Review", 1)]
