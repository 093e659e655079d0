"""Triage says why an article got no unit, or few for its length (issue 30): the import's
notice is shown for that article, over its units or in place of them; an article whose import
said nothing shows no notice line."""

from __future__ import annotations

from pathlib import Path

from conftest import running, screen_text, settle
from textual.widgets import Static

from core.services.bootstrap import Services
from sample_articles import sample_paths
from tui.screens.triage import TriageScreen

CODE = "# Snippets\n\n```sh\nmake && make install\nmake check\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


async def test_an_article_without_units_shows_why(svc: Services, tmp_path: Path) -> None:
    path = tmp_path / "snippets.md"
    path.write_text(CODE, encoding="utf-8")
    (outcome,) = svc.library.import_paths([path], extractor="offline")
    assert outcome.article_id is not None and outcome.units == 0 and outcome.count_notice is not None
    async with running(svc) as (app, pilot):
        app.push_screen(TriageScreen(outcome.article_id))
        await settle(pilot)
        shown = screen_text(app)
        assert "No proposals waiting" in shown and "Import: no unit: no prose sentences" in shown, shown
        notice = str(app.screen.query_one("#triage-notice", Static).render())
        assert notice == f"Import: {outcome.count_notice.text()}"
        assert outcome.count_notice.text().startswith("no unit: no prose sentences, the text is code")


async def test_an_article_whose_import_said_nothing_shows_no_notice(svc: Services) -> None:
    (outcome,) = svc.library.import_paths(sample_paths()[:1], extractor="offline")
    assert outcome.article_id is not None and outcome.units > 0 and outcome.count_notice is None
    async with running(svc) as (app, pilot):
        app.push_screen(TriageScreen(outcome.article_id))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TriageScreen) and screen.unit is not None
        assert not screen.query_one("#triage-notice").display
        assert "Import:" not in screen_text(app)
