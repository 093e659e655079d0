"""By keys only: import → triage → review → stats, checking the database after each step."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import opened, running, screen_text, settle

from core.services.bootstrap import Services
from sample_articles import sample_paths
from tui.screens.home import HomeScreen
from tui.screens.import_screen import ImportScreen
from tui.screens.review import ReviewScreen
from tui.screens.stats import StatsScreen
from tui.screens.triage import TriageScreen


async def test_import_triage_review_stats_by_keys(svc: Services, tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    folder.mkdir()
    english = [p for p in sample_paths() if p.name in {"photosynthesis.txt", "spaced-repetition.md"}]
    for path in english:
        shutil.copy(path, folder / path.name)
    (folder / "empty.txt").write_text("", encoding="utf-8")

    async with running(svc) as (app, pilot):
        assert isinstance(app.screen, HomeScreen)

        # --- import: type the folder (relative to the cwd) and press enter --------------------
        await opened(pilot, "i", ImportScreen)
        await pilot.press(*"articles", "enter")
        await settle(pilot, rounds=6)
        assert svc.library.article_count() == 2
        proposed = svc.library.unit_count("proposed")
        assert proposed >= 4
        log = "\n".join(app.screen.query_one("#import-log").lines)
        assert "imported" in log and "refused" in log and "empty.txt" in log
        assert "Finished" in screen_text(app)

        # --- triage: accept, reject, undo the reject, skip, accept ---------------------------
        await pilot.press("escape", "t")
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        first = app.screen.unit
        assert first is not None
        await pilot.press("a")
        await settle(pilot)
        unit = svc.library.unit(first.id)
        assert unit is not None and unit.status == "confirmed"
        second = app.screen.unit
        assert second is not None and second.id != first.id
        await pilot.press("r")
        await settle(pilot)
        assert svc.library.unit(second.id).status == "rejected"  # type: ignore[union-attr]
        await pilot.press("u")
        await settle(pilot)
        assert svc.library.unit(second.id).status == "proposed"  # type: ignore[union-attr]
        assert app.screen.unit is not None and app.screen.unit.id == second.id
        await pilot.press("a")
        await settle(pilot)
        assert svc.library.unit_count("confirmed") == 2
        assert svc.library.unit_count("proposed") == proposed - 2

        # --- review: rating keys do nothing before the reveal --------------------------------
        await pilot.press("escape", "r")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        item = app.screen.item
        assert item is not None, "accepting should have created cards"
        await pilot.press("3")
        await settle(pilot)
        assert svc.stats.summary().total_reviews == 0
        assert app.screen.item is not None and app.screen.item.card.id == item.card.id
        await pilot.press("space")
        await settle(pilot)
        assert "Answer" in screen_text(app)
        await pilot.press("3")
        await settle(pilot)
        assert svc.stats.summary().total_reviews == 1
        card = svc.review.card(item.card.id)
        assert card is not None and card.reps == 1
        await pilot.press("u")
        await settle(pilot)
        assert svc.stats.summary().total_reviews == 0
        await pilot.press("space", "4")
        await settle(pilot)
        assert svc.stats.summary().total_reviews == 1

        # --- stats ------------------------------------------------------------------------------
        await pilot.press("escape", "s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "Reviews a day" in text and "Cards by state" in text
        assert "offline" in text  # the accept rate of the offline extractor
        rates = svc.curation.rates()
        assert any(r.get("extractor") == "offline" and r.get("accept") == 2 for r in rates)
        assert app.is_running
