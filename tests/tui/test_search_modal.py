"""The search modal by keyboard: down into the results, up from the first result back to the
field (there was no way back but the mouse)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from conftest import running, searched, settle, until
from textual.widgets import Input, OptionList

from core.services.bootstrap import Services


async def test_up_from_the_first_result_goes_back_to_the_field(samples: Services) -> None:
    async with running(samples) as (_, pilot):
        modal = await searched(pilot, "light")
        results, field = modal.query_one(OptionList), modal.query_one(Input)
        assert results.option_count >= 2
        await pilot.press("down")
        assert results.has_focus and results.highlighted == 0
        await pilot.press("down", "down", "up")  # inside the list, up still moves up
        assert results.has_focus and results.highlighted == 1
        await pilot.press("up", "up")
        assert field.has_focus
        await pilot.press(*" energy")
        assert field.value == "light energy"


async def test_a_search_that_ends_after_a_later_one_does_not_replace_its_hits(
    samples: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each keystroke starts a search in a thread and cancels the one before, but a thread runs
    on: the earlier search (here held until the later one is shown, as a busy machine may hold
    it) finishing last put its hits up for words no longer typed."""
    from tui.modals import search

    held = threading.Event()
    real = search.find

    def find(app: object, ask: Any) -> object:
        result = real(app, ask)  # type: ignore[arg-type]
        if ask.query == "chlorophyll":
            held.wait(timeout=30)
        return result

    monkeypatch.setattr(search, "find", find)
    async with running(samples) as (_, pilot):
        modal = await searched(pilot, "")
        results, field = modal.query_one(OptionList), modal.query_one(Input)

        def first_hit() -> str:
            return str(results.get_option_at_index(0).prompt).lower() if results.option_count else ""

        field.value = "chlorophyll"  # held
        await pilot.pause()
        field.value = "forgetting"
        await until(pilot, lambda: "forgetting" in first_hit())  # the later search's hits are up
        held.set()  # the earlier search ends now, last
        await settle(pilot)
        assert "forgetting" in first_hit() and "chlorophyll" not in first_hit(), first_hit()


async def test_escape_from_an_opened_hit_comes_back_to_the_results_as_they_were(samples: Services) -> None:
    """Issue 32: escape on the article opened from a search hit went Home; it goes back to the
    search, with its words, its hits and the hit chosen highlighted. The open is recorded."""
    from core.storage.db import db
    from tui.modals.search import SearchModal
    from tui.screens.article import ArticleScreen

    async with running(samples) as (app, pilot):
        modal = await searched(pilot, "chlorophyll")
        hits = list(modal._hits)
        assert len(hits) >= 2
        await pilot.press("down", "down", "enter")  # the second hit
        await settle(pilot)
        article = app.screen
        assert isinstance(article, ArticleScreen) and article.article_id == hits[1].article_id
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is modal and isinstance(modal, SearchModal)
        results = modal.query_one(OptionList)
        assert modal.query_one(Input).value == "chlorophyll" and modal._hits == hits
        assert results.has_focus and results.highlighted == 1
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 2  # Home
    assert db.execute_sql("SELECT SUM(opens) FROM search_feedback").fetchone()[0] == 1
