"""The index stays in step with the library: import, edit, trash, restore, purge, undo, filters."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.domain.search import SearchFilters
from core.domain.undo import Scope
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.storage import curation as curation_repo
from core.storage.db import db, write_transaction
from core.storage.search import index as search_index

ARTICLE = """Spaced repetition

Spaced repetition spreads reviews of the same material over increasing intervals of time.

Hermann Ebbinghaus measured the forgetting curve and found that recall drops steeply within a day.

Active recall means retrieving an answer from memory instead of rereading the page.
"""

OTHER = """Tides

The gravitational pull of the moon raises ocean tides twice a day on most coasts.
"""


def _import(services: Services, tmp_path: Path, name: str, text: str) -> int:
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported", outcome.message
    assert outcome.article_id is not None
    return outcome.article_id


@pytest.fixture
def lib(services: Services, tmp_path: Path) -> tuple[Services, int, int]:
    services.search.signals = False
    first = _import(services, tmp_path, "spacing", ARTICLE)
    second = _import(services, tmp_path, "tides", OTHER)
    return services, first, second


def _unit_ids(services: Services, query: str, filters: SearchFilters | None = None) -> list[int]:
    return [h.unit_id for h in services.search.search(query, 20, filters) if h.unit_id is not None]


def _integrity() -> None:
    for table in ("search_para", "search_unit"):
        db.execute_sql(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
    paragraphs = db.execute_sql("SELECT COUNT(*) FROM paragraph").fetchone()[0]
    assert db.execute_sql("SELECT COUNT(*) FROM search_para").fetchone()[0] == paragraphs
    assert db.execute_sql("SELECT value FROM search_stats WHERE key = 'docs'").fetchone()[0] == paragraphs
    units = db.execute_sql("SELECT COUNT(*) FROM unit").fetchone()[0]
    assert db.execute_sql("SELECT COUNT(*) FROM search_unit").fetchone()[0] == units


def test_import_indexes_paragraphs_and_units(lib: tuple[Services, int, int]) -> None:
    services, first, second = lib
    _integrity()
    hits = services.search.search("Ebbinghaus forgetting curve", 5)
    assert hits[0].article_id == first and hits[0].paragraph_id == "p_003"
    units = services.library.units(first)
    assert units, "the offline extractor proposed units"
    # a unit with every word outranks its paragraph, which follows it
    unit = next(u for u in units if "Ebbinghaus" in u.content)
    assert hits[0].unit_id == unit.id
    assert (hits[1].paragraph_id, hits[1].unit_id) == ("p_003", None)
    assert services.search.search("moon tides", 3)[0].article_id == second


def test_edit_reindexes_the_unit(lib: tuple[Services, int, int]) -> None:
    services, first, _ = lib
    unit = services.library.units(first)[0]
    services.curation.edit(
        unit.id,
        content="Zanzibar quokka mnemonic",
        memory_type=unit.memory_type,
        tags=["zoology"],
        questions=[("What is the quokka mnemonic?", "Zanzibar", "qa")],
    )
    assert _unit_ids(services, "quokka") == [unit.id]
    assert _unit_ids(services, "Zanzibar") == [unit.id]
    old_word = max(unit.content.split(), key=len).strip(".,;:")
    assert unit.id not in _unit_ids(services, old_word, SearchFilters(units_only=True))
    assert _unit_ids(services, "quokka", SearchFilters(tags=("Zoology",))) == [unit.id]
    assert _unit_ids(services, "quokka", SearchFilters(tags=("botany",))) == []
    _integrity()


def test_trash_restore_and_purge(lib: tuple[Services, int, int], clock: FixedClock) -> None:
    services, first, _ = lib
    unit = next(u for u in services.library.units(first) if "Ebbinghaus" in u.content)
    assert unit.id in _unit_ids(services, "Ebbinghaus")
    assert services.curation.trash(unit.id)
    assert unit.id not in _unit_ids(services, "Ebbinghaus")  # trashed units are not searched by default
    assert services.search.search("Ebbinghaus", 5)[0].paragraph_id == "p_003"  # the paragraph still is
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(unit_statuses=("trashed",))) == [unit.id]
    assert services.curation.restore(unit.id)
    assert unit.id in _unit_ids(services, "Ebbinghaus")
    assert services.curation.trash(unit.id)
    purged = curation_repo.purge_trash(clock.epoch() + 1)
    assert purged == 1
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(unit_statuses=("trashed",))) == []
    _integrity()


def test_undo_of_an_edit_restores_the_old_text(lib: tuple[Services, int, int]) -> None:
    services, first, _ = lib
    unit = next(u for u in services.library.units(first) if "Ebbinghaus" in u.content)
    services.curation.edit(
        unit.id, content="Completely different wording", memory_type=unit.memory_type, tags=[], questions=[]
    )
    assert unit.id not in _unit_ids(services, "Ebbinghaus")
    assert services.undo.undo(Scope.CURATION).unit_id == unit.id
    assert unit.id in _unit_ids(services, "Ebbinghaus")
    _integrity()


def test_a_failed_write_leaves_no_index_rows(lib: tuple[Services, int, int]) -> None:
    services, first, _ = lib
    before = db.execute_sql("SELECT COUNT(*) FROM search_unit").fetchone()[0]
    unit = services.library.units(first)[0]
    with pytest.raises(RuntimeError), write_transaction():
        db.execute_sql("UPDATE unit SET content = 'walrus' WHERE id = ?", (unit.id,))
        search_index.reindex_unit(unit.id)
        raise RuntimeError("boom")
    assert db.execute_sql("SELECT COUNT(*) FROM search_unit").fetchone()[0] == before
    assert _unit_ids(services, "walrus") == []


def test_filters_by_article_status_and_type(lib: tuple[Services, int, int]) -> None:
    services, first, second = lib
    everywhere = {h.article_id for h in services.search.search("day", 20)}
    assert everywhere == {first, second}
    only = services.search.search("day", 20, SearchFilters(article_ids=(second,)))
    assert only and {h.article_id for h in only} == {second}
    unit = next(u for u in services.library.units(first) if "Ebbinghaus" in u.content)
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(unit_statuses=("confirmed",))) == []
    assert services.curation.accept(unit.id)
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(unit_statuses=("confirmed",))) == [unit.id]
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(memory_types=(unit.memory_type,))) == [unit.id]
    other_type = next(t for t in ("concept", "claim", "mechanism", "example") if t != unit.memory_type)
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(memory_types=(other_type,))) == []
    # unit filters give unit hits only
    assert all(
        h.unit_id is not None for h in services.search.search("day", 20, SearchFilters(units_only=True))
    )


def test_memory_state_filters(lib: tuple[Services, int, int], clock: FixedClock) -> None:
    services, first, _ = lib
    unit = next(u for u in services.library.units(first) if "Ebbinghaus" in u.content and u.questions)
    assert services.curation.accept(unit.id)
    cards = services.review.cards_of_unit(unit.id)
    assert cards
    due = SearchFilters(due=True)
    weak = SearchFilters(retrievability_below=0.9)
    assert _unit_ids(services, "Ebbinghaus", due) == []  # new cards are not due reviews
    assert _unit_ids(services, "Ebbinghaus", weak) == []  # never reviewed: no retrievability
    for card in cards:
        services.review.answer(card.id, 3)
    clock.advance(days=60)
    assert _unit_ids(services, "Ebbinghaus", due) == [unit.id]
    assert _unit_ids(services, "Ebbinghaus", weak) == [unit.id]
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(retrievability_below=0.01)) == []
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(suspended=True)) == []
    assert services.review.suspend(cards[0].id)
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(suspended=True)) == [unit.id]
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(leech=True)) == []
    with write_transaction():  # a leech is many lapses; set the flag the scheduler would set
        db.execute_sql("UPDATE card SET leech = 1 WHERE id = ?", (cards[0].id,))
    assert _unit_ids(services, "Ebbinghaus", SearchFilters(leech=True)) == [unit.id]


def test_rebuild_gives_the_same_results(lib: tuple[Services, int, int]) -> None:
    services, _, _ = lib
    queries = ["Ebbinghaus", "spaced repetition intervals", "moon", "rec"]
    before = [[(h.paragraph_id, h.unit_id) for h in services.search.search(q, 10)] for q in queries]
    services.search.rebuild_index()
    _integrity()
    after = [[(h.paragraph_id, h.unit_id) for h in services.search.search(q, 10)] for q in queries]
    assert before == after


def test_use_feedback_is_a_switchable_signal(lib: tuple[Services, int, int]) -> None:
    services, _, _ = lib
    services.search.signals = True
    hits = services.search.search("day", 10)
    assert len(hits) >= 2
    last = hits[-1]
    for _ in range(20):
        services.search.record_open(last)
    boosted = services.search.search("day", 10)
    assert (
        next(
            h.score
            for h in boosted
            if h == last or (h.paragraph_id, h.unit_id) == (last.paragraph_id, last.unit_id)
        )
        > last.score
    )
    services.search.signals = False
    plain = services.search.search("day", 10)
    assert [(h.paragraph_id, h.unit_id) for h in plain][-1] == (last.paragraph_id, last.unit_id)
