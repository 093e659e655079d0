"""Anki reads our review history with our buttons and our FSRS (issue 34, item 4).

A `--with-history` package is imported into a fresh collection with Anki's own code, the way a
user does it ("Import any learning progress" and "Import deck presets" on). Then:

- every revlog ease is the button we pressed (a package Anki takes for a v1-scheduler collection
  is "upgraded": Hard and Good of a new or learning card arrive one button higher);
- Anki's FSRS, replaying that log under the deck's preset (`Collection.compute_memory_state`),
  finds our stability and difficulty, with fsrs' default parameters and with our own (stored the
  way `memoryrush optimize` stores them);
- every deck of ours uses a preset with our parameters, desired retention and steps, and the
  package's collection says v3 scheduler and FSRS on.
"""

from __future__ import annotations

import sqlite3
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from export_support import build_library

from core.domain.export import ExportFilter
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.export.runner import run_export
from scheduler import DEFAULT_PARAMETERS

anki_collection = pytest.importorskip("anki.collection")

# Non-default FSRS-6 parameters, inside the ranges fsrs and Anki accept.
OPTIMIZED = (
    0.4,
    1.8,
    3.5,
    10.0,
    6.0,
    0.7,
    2.5,
    0.01,
    1.6,
    0.2,
    0.9,
    1.3,
    0.08,
    0.3,
    1.5,
    0.5,
    2.0,
    0.6,
    0.12,
    0.08,
    0.25,
)


@dataclass(frozen=True)
class Reviewed:
    """One of our reviewed cards: its memory state and its buttons, oldest first."""

    stability: float
    difficulty: float
    ratings: tuple[int, ...]


@dataclass(frozen=True)
class Settings:
    parameters: tuple[float, ...]
    retention: float
    learning: tuple[float, ...]
    relearning: tuple[float, ...]


SETTINGS = {
    "default": Settings(DEFAULT_PARAMETERS, 0.9, (1.0, 10.0), (10.0,)),
    "optimized": Settings(OPTIMIZED, 0.85, (2.0, 15.0), (5.0,)),
}


def import_with_presets(col, package: Path) -> None:  # type: ignore[no-untyped-def]
    """`package` imported into the Anki collection `col` with its scheduling and its presets."""
    options = anki_collection.ImportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=True, merge_notetypes=True
    )
    col.import_anki_package(
        anki_collection.ImportAnkiPackageRequest(package_path=str(package), options=options)
    )


@pytest.fixture(params=sorted(SETTINGS))
def settings(request: pytest.FixtureRequest) -> Settings:
    return SETTINGS[request.param]


@pytest.fixture
def imported(services: Services, clock: FixedClock, tmp_path: Path, settings: Settings):  # type: ignore[no-untyped-def]
    """The library reviewed under `settings`, exported with history and imported into Anki:
    (our reviewed cards by question id, the Anki collection, Anki card ids by question id, package)."""
    if settings.parameters != DEFAULT_PARAMETERS:
        services.review.set_parameters(settings.parameters)  # what `memoryrush optimize` saves
    services.config = replace(
        services.config,
        desired_retention=settings.retention,
        learning_steps=settings.learning,
        relearning_steps=settings.relearning,
    )
    build_library(services, clock)
    package = tmp_path / "history.apkg"
    run_export(services, "anki-history", package, ExportFilter())
    col = anki_collection.Collection(str(tmp_path / "c.anki2"))
    try:
        import_with_presets(col, package)
        cards = {
            col.get_note(col.get_card(cid).nid)["MemoryRush ID"].rsplit("/q", 1)[1]: cid
            for cid in col.find_cards("")
        }
        yield _reviewed(services), col, cards, package
    finally:
        col.close()


def _reviewed(services: Services) -> dict[str, Reviewed]:
    con = sqlite3.connect(services.data_dir / "memoryrush.sqlite3")
    try:
        rows = con.execute(
            "SELECT c.question_id, c.stability, c.difficulty, r.rating FROM card c "
            "JOIN review_log r ON r.card_id = c.id ORDER BY c.id, r.reviewed_at, r.id"
        ).fetchall()
    finally:
        con.close()
    out: dict[str, Reviewed] = {}
    for qid, stability, difficulty, rating in rows:
        before = out.get(str(qid))
        ratings = (*before.ratings, rating) if before else (rating,)
        out[str(qid)] = Reviewed(stability, difficulty, ratings)
    return out


def test_every_button_arrives_as_given(imported) -> None:  # type: ignore[no-untyped-def]
    ours, col, cards, _ = imported
    assert sum(len(r.ratings) for r in ours.values()) >= 15 and len(ours) >= 5
    assert {3, 2} <= {x for r in ours.values() for x in r.ratings}  # Good and Hard, where v1 differed
    for qid, reviewed in ours.items():
        eases = col.db.list("SELECT ease FROM revlog WHERE cid = ? ORDER BY id", cards[qid])
        assert tuple(eases) == reviewed.ratings, qid


def test_ankis_fsrs_replays_our_log_to_our_memory_state(imported, settings: Settings) -> None:  # type: ignore[no-untyped-def]
    ours, col, cards, _ = imported
    for qid, reviewed in ours.items():
        computed = col.compute_memory_state(cards[qid])
        assert computed.stability == pytest.approx(reviewed.stability, rel=0.01), qid
        assert computed.difficulty == pytest.approx(reviewed.difficulty, rel=0.01), qid
        assert computed.desired_retention == pytest.approx(settings.retention, abs=1e-6)
        assert computed.decay == pytest.approx(settings.parameters[20], abs=1e-6)


def test_our_decks_use_a_preset_with_our_fsrs_settings(imported, settings: Settings) -> None:  # type: ignore[no-untyped-def]
    _, col, cards, package = imported
    decks = {col.get_card(cid).did for cid in cards.values()}
    decks.add(col.decks.id_for_name("MemoryRush"))
    for did in decks:
        preset = col.decks.config_dict_for_deck_id(did)
        assert preset["id"] != 1  # not Anki's Default preset
        assert preset["fsrsParams6"] == pytest.approx(settings.parameters, abs=1e-6)
        assert preset["desiredRetention"] == pytest.approx(settings.retention, abs=1e-6)
        assert preset["new"]["delays"] == list(settings.learning)
        assert preset["lapse"]["delays"] == list(settings.relearning)
    inside = package.parent / "package.anki2"  # the package's own collection, as Anki opens it
    with zipfile.ZipFile(package) as z:
        inside.write_bytes(z.read("collection.anki2"))
    own = anki_collection.Collection(str(inside))
    try:
        assert own.sched_ver() == 2 and own.v3_scheduler()
        assert own.get_config("fsrs") is True  # (an import never changes the target's own switch)
    finally:
        own.close()


def test_a_new_export_after_optimizing_moves_the_decks_to_the_new_parameters(
    services: Services, clock: FixedClock, tmp_path: Path
) -> None:
    """Anki never overwrites a preset it has (it adds a preset only when its id is new); a
    re-export with other parameters brings a preset of its own, and the decks move to it."""
    build_library(services, clock)
    collection = tmp_path / "c.anki2"
    for n, parameters in enumerate((None, OPTIMIZED)):
        services.review.set_parameters(parameters)
        package = tmp_path / f"{n}.apkg"
        run_export(services, "anki-history", package, ExportFilter())
        col = anki_collection.Collection(str(collection))
        try:
            import_with_presets(col, package)
            for cid in col.find_cards(""):
                preset = col.decks.config_dict_for_deck_id(col.get_card(cid).did)
                expected = parameters or DEFAULT_PARAMETERS
                assert preset["fsrsParams6"] == pytest.approx(expected, abs=1e-6)
        finally:
            col.close()
