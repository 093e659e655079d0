"""`LibraryService` import settings and trash: by default every proposal waits for the user,
the auto-accept threshold and the low-confidence floor behave, and old trash is purged at an
exclusive start-up only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from core.domain import ArticleMemoryOutput, MemoryUnit, SourceDocument
from core.host.clock import FixedClock
from core.host.config import Config
from core.services.bootstrap import open_services
from tests.faults.helpers import query as rows
from tests.library_support import Scripted, grounded, questions_for, write

# --- triage settings --------------------------------------------------------------------------


def confidence_article(doc: SourceDocument) -> ArticleMemoryOutput:
    units = (
        grounded(doc, 0, "High confidence unit about reviews.", 0.9),
        grounded(doc, 1, "Middle confidence unit about Ebbinghaus.", 0.5),
        grounded(doc, 2, "Low confidence unit about retrieval.", 0.1),
        MemoryUnit(
            "High but invalid: no question for it.", "claim", grounded(doc, 2, "x").evidence, (), 0.95
        ),
    )
    return ArticleMemoryOutput("", (), units, questions_for(3))


def import_with(home: Path, clock: FixedClock, config: Config, path: Path) -> dict[int, tuple[str, bool]]:
    svc = open_services(home, config=config, clock=clock)
    try:
        outcome = svc.library.import_file(path, Scripted(confidence_article))
        low = {u.id for u in svc.library.units(outcome.article_id, low_confidence=True)}
        return {u.position: (u.status, u.id in low) for u in svc.library.units(outcome.article_id)}
    finally:
        svc.close()


WAITS, CONFIRMED, PARKED = ("proposed", False), ("confirmed", False), ("proposed", True)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        pytest.param(Config(), [WAITS] * 4, id="by_default_every_proposal_waits_for_the_user"),
        pytest.param(
            Config(auto_accept_threshold=0.8),
            [CONFIRMED, WAITS, WAITS, WAITS],
            id="auto_accept_threshold_accepts_only_valid_confident_units",
        ),
        pytest.param(
            Config(auto_accept_threshold=0.8, low_confidence_floor=0.3),
            [CONFIRMED, WAITS, PARKED, WAITS],
            id="low_confidence_floor_parks_units_without_deleting_them",
        ),
    ],
)
def test_the_import_settings_decide_which_units_wait(
    data_home: Path, clock: FixedClock, tmp_path: Path, config: Config, expected: list[tuple[str, bool]]
) -> None:
    """Units 0-3 of `confidence_article` by position: (status, parked as low confidence)."""
    result = import_with(data_home, clock, config, write(tmp_path / "a.txt"))
    assert result == dict(enumerate(expected))


# --- trash -----------------------------------------------------------------------------------


def test_trash_is_purged_at_start_up_after_30_days(
    data_home: Path, clock: FixedClock, tmp_path: Path
) -> None:
    svc = open_services(data_home, clock=clock)
    try:
        [outcome] = svc.library.import_paths([write(tmp_path / "a.txt")], extractor="placeholder")
        first, second, *_ = svc.library.units(outcome.article_id)
        assert svc.curation.trash(first.id)
        clock.advance(days=2)
        assert svc.curation.trash(second.id)
    finally:
        svc.close()

    def reopen_after(days: float) -> tuple[list[str], set[int]]:
        clock.advance(days=days)
        svc = open_services(data_home, clock=clock)
        try:
            return svc.notices, {u.id for u in svc.library.units(outcome.article_id)}
        finally:
            svc.close()

    notices, ids = reopen_after(27)  # 29 days after the first trash: both kept
    assert {first.id, second.id} <= ids and notices == []
    notices, ids = reopen_after(1.5)  # 30.5 days after the first, 28.5 after the second
    assert first.id not in ids and second.id in ids
    assert notices == ["purged 1 unit trashed more than 30 days ago"]
    assert rows(data_home, f"SELECT COUNT(*) FROM evidence WHERE unit_id = {first.id}") == [(0,)]
    assert rows(data_home, f"SELECT COUNT(*) FROM question WHERE unit_id = {first.id}") == [(0,)]
    notices, ids = reopen_after(2)
    assert second.id not in ids


def test_a_non_exclusive_open_never_purges(data_home: Path, clock: FixedClock, tmp_path: Path) -> None:
    svc = open_services(data_home, clock=clock)
    try:
        [outcome] = svc.library.import_paths([write(tmp_path / "a.txt")], extractor="placeholder")
        unit = svc.library.units(outcome.article_id)[0]
        svc.curation.trash(unit.id)
    finally:
        svc.close()
    clock.set(clock.now() + timedelta(days=40))
    svc = open_services(data_home, clock=clock, exclusive=False)
    try:
        assert unit.id in {u.id for u in svc.library.units(statuses=["trashed"])}
    finally:
        svc.close()
