"""A unit moved to another article's deck leaves in that deck: Anki's own importer puts its
cards in MemoryRush::<deck article> (the note's Source stays the source article), and the
library JSON carries the move both ways (import-library gives the same deck back)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from export_support import build_library, move_one

from core.domain.browse import BrowseFilter, BrowseSort, Column
from core.domain.export import ExportFilter
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services
from core.services.export.anki import export_anki
from core.services.export.anki_notes import deck_name
from core.services.export.library_json import export_json, import_library

anki_collection = pytest.importorskip("anki.collection")


def test_anki_puts_a_moved_units_cards_in_the_other_articles_deck(
    services: Services, clock: FixedClock, tmp_path: Path
) -> None:
    build_library(services, clock, days=1, per_day=2)
    unit_id, source, deck = move_one(services)
    questions = {q.id for q in services.library.unit(unit_id).questions}  # type: ignore[union-attr]
    package = tmp_path / "out.apkg"
    export_anki(package, ExportFilter(), now=clock.epoch())

    col = anki_collection.Collection(str(tmp_path / "c.anki2"))
    try:
        col.import_anki_package(
            anki_collection.ImportAnkiPackageRequest(
                package_path=str(package),
                options=anki_collection.ImportAnkiPackageOptions(with_scheduling=True, merge_notetypes=True),
            )
        )
        seen_moved = 0
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            note = col.get_note(card.nid)
            qid = int(note["MemoryRush ID"].rsplit("/q", 1)[1])
            if qid in questions:
                seen_moved += 1
                assert note["Source"] == source  # the evidence's article
                assert col.decks.name(card.did) == deck_name(deck)
            else:
                assert col.decks.name(card.did) == deck_name(note["Source"])
        assert seen_moved == len(questions) > 0
    finally:
        col.close()


def test_the_library_json_carries_the_deck_there_and_back(
    services: Services, clock: FixedClock, tmp_path: Path
) -> None:
    build_library(services, clock, days=1, per_day=2)
    unit_id, _, _ = move_one(services)
    deck = services.library.articles()[1].id
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=services.config)
    services.close()

    fresh = tmp_path / "fresh"
    svc = open_services(fresh, clock=clock)
    try:
        import_library(out)
        rows = svc.browse.page(BrowseFilter(article_ids=(deck,)), BrowseSort(Column.ADDED), None, 100).rows
        assert unit_id in {r.key.unit_id for r in rows}
        assert {r.deck_id for r in rows if r.key.unit_id == unit_id} == {deck}
        assert svc.undo.undo(Scope.BULK) is not None  # the move's journal came along: undo still works
    finally:
        svc.close()
    con = sqlite3.connect(fresh / "memoryrush.sqlite3")
    try:
        assert con.execute("SELECT deck_id FROM unit WHERE id = ?", (unit_id,)).fetchone() == (None,)
    finally:
        con.close()
