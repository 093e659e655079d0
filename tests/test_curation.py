"""Curation: accept / reject / edit (re-validated) / trash / restore / undo, each one
transaction, recorded per extractor and model."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.domain import StoredUnit
from core.domain.errors import MemoryRushError
from core.domain.undo import Scope
from core.services.bootstrap import Services
from core.services.curation import CannotAccept

TEXT = """Spaced repetition schedules each review just before you would forget it.

The forgetting curve was described by Hermann Ebbinghaus in 1885.

Retrieval practice strengthens memory more than rereading does.
"""


@pytest.fixture
def units(services: Services, tmp_path: Path) -> list[StoredUnit]:
    path = tmp_path / "a.txt"
    path.write_text(TEXT, encoding="utf-8")
    [outcome] = services.library.import_paths([path], extractor="placeholder")
    found = services.library.units(outcome.article_id)
    assert len(found) == 3 and all(u.status == "proposed" for u in found)
    return found


def status(services: Services, unit_id: int) -> str:
    unit = services.library.unit(unit_id)
    assert unit is not None
    return unit.status


def test_accept_and_reject(services: Services, units: list[StoredUnit]) -> None:
    assert services.curation.accept(units[0].id)
    assert not services.curation.accept(units[0].id)  # already confirmed: nothing changes
    assert services.curation.reject(units[1].id)
    assert status(services, units[0].id) == "confirmed"
    assert status(services, units[1].id) == "rejected"
    assert services.library.unit_count("proposed") == 1
    assert not services.curation.accept(99999)


def test_accept_all_valid_in_an_article(services: Services, units: list[StoredUnit]) -> None:
    assert services.curation.accept_all_valid(units[0].article_id) == 3
    assert {status(services, u.id) for u in units} == {"confirmed"}


def test_an_edit_is_revalidated_and_blocks_acceptance_until_fixed(
    services: Services, units: list[StoredUnit]
) -> None:
    unit = units[0]
    report = services.curation.edit(
        unit.id, content="  ", memory_type="opinion", tags=["a", " "], questions=[("When?", "", "qa")]
    ).report
    assert {i.code for i in report.issues} == {"empty_content", "unknown_type", "empty_answer"}
    edited = services.library.unit(unit.id)
    assert edited is not None and edited.edited and not edited.acceptable
    assert edited.tags == ("a",)
    with pytest.raises(CannotAccept, match="edit it first"):
        services.curation.accept(unit.id)

    edited = services.curation.edit(
        unit.id,
        content="Reviews are scheduled just before forgetting.",
        memory_type="mechanism",
        tags=["spacing"],
        questions=[
            ("When is a review scheduled?", "Just before you would forget.", "qa"),
            ("Who?", "You", "cloze"),
        ],
    )
    assert edited.report.ok and not edited.reasked  # the questions stored as given
    fixed = services.library.unit(unit.id)
    assert fixed is not None and fixed.acceptable
    assert fixed.evidence == unit.evidence  # evidence is never edited away
    assert [q.question for q in fixed.questions] == ["When is a review scheduled?", "Who?"]
    assert services.curation.accept(unit.id)


def test_editing_a_missing_unit_is_a_clear_error(services: Services) -> None:
    with pytest.raises(MemoryRushError, match="does not exist"):
        services.curation.edit(4242, content="x", memory_type="claim", tags=[], questions=[])


def test_trash_and_restore_keep_the_previous_status(services: Services, units: list[StoredUnit]) -> None:
    services.curation.accept(units[0].id)
    assert services.curation.trash(units[0].id)
    assert not services.curation.trash(units[0].id)
    assert status(services, units[0].id) == "trashed"
    # a trashed unit is not accepted or rejected behind the user's back
    assert not services.curation.reject(units[0].id)
    assert not services.curation.accept(units[0].id)
    assert status(services, units[0].id) == "trashed"
    assert services.curation.restore(units[0].id)
    assert status(services, units[0].id) == "confirmed"
    assert not services.curation.restore(units[0].id)


def test_undo_walks_back_several_steps(services: Services, units: list[StoredUnit]) -> None:
    original = services.library.unit(units[0].id)
    services.curation.accept(units[0].id)
    services.curation.edit(
        units[0].id, content="Changed.", memory_type="claim", tags=[], questions=[("Q?", "A", "qa")]
    )
    services.curation.reject(units[1].id)
    assert services.undo.undo(Scope.CURATION).unit_id == units[1].id
    assert status(services, units[1].id) == "proposed"
    assert services.undo.undo(Scope.CURATION).unit_id == units[0].id
    restored = services.library.unit(units[0].id)
    assert restored is not None and original is not None
    assert restored.content == original.content and not restored.edited
    assert [q.question for q in restored.questions] == [q.question for q in original.questions]
    assert restored.status == "confirmed"
    assert services.undo.undo(Scope.CURATION).unit_id == units[0].id
    assert status(services, units[0].id) == "proposed"
    assert services.undo.undo(Scope.CURATION) is None


def test_undo_survives_a_restart(data_home: Path, services: Services, units: list[StoredUnit]) -> None:
    from core.services.bootstrap import open_services

    services.curation.reject(units[2].id)
    services.close()
    again = open_services(data_home, clock=services.clock)
    try:
        assert again.undo.undo(Scope.CURATION).unit_id == units[2].id
        assert status(again, units[2].id) == "proposed"
    finally:
        again.close()


def test_curation_rates_per_extractor(services: Services, units: list[StoredUnit]) -> None:
    services.curation.accept(units[0].id)
    services.curation.reject(units[1].id)
    services.curation.edit(
        units[2].id, content="Edited text.", memory_type="claim", tags=[], questions=[("Q?", "A", "qa")]
    )
    services.curation.reject(units[2].id)
    services.undo.undo(Scope.CURATION)  # the last reject does not count
    [row] = services.curation.rates()
    assert row["extractor"] == "placeholder"
    assert (row.get("accept"), row.get("reject"), row.get("edit")) == (1, 1, 1)


def test_undoing_a_split_leaves_no_half_in_the_trash(services: Services, tmp_path: Path) -> None:
    """Issue 32: a split's undo trashed the unit the split made. The unit did not exist before
    the split: the undo removes it with its cards, and the library is as it was."""
    from core.storage.db import db

    path = tmp_path / "b.txt"
    path.write_text(
        "Mitochondria release the energy stored in glucose through cellular respiration, "
        "and they do so in every animal cell.\n",
        encoding="utf-8",
    )
    [outcome] = services.library.import_paths([path], extractor="offline")
    (unit,) = services.library.units(outcome.article_id)
    services.curation.accept(unit.id)
    cards_before = db.execute_sql("SELECT id FROM card ORDER BY id").fetchall()
    second = services.authoring.split(unit.id)
    assert status(services, second) == "confirmed"
    assert db.execute_sql("SELECT COUNT(*) FROM card WHERE unit_id = ?", (second,)).fetchone()[0] > 0
    undone = services.undo.undo(Scope.CURATION, outcome.article_id)
    assert undone is not None and not undone.changed_since
    assert services.library.unit(second) is None
    assert db.execute_sql("SELECT COUNT(*) FROM card WHERE unit_id = ?", (second,)).fetchone()[0] == 0
    assert services.browse.trash_count() == 0
    assert [u.id for u in services.library.units(outcome.article_id)] == [unit.id]
    assert services.library.unit(unit.id).content == unit.content  # type: ignore[union-attr]
    assert db.execute_sql("SELECT id FROM card ORDER BY id").fetchall() == cards_before
    assert all(h.unit_id != second for h in services.search.search("every animal cell", 10))
