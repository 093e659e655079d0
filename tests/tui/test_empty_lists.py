"""An empty list says why and what to do: a filter that matches nothing, a search without
matches, an empty library."""

from __future__ import annotations

import re

from conftest import article_screen, running, screen_text, searched, settle
from textual.widgets import OptionList

from core.services.bootstrap import Services


async def test_a_unit_filter_that_matches_nothing_says_so_in_the_list(samples: Services) -> None:
    article = samples.library.articles()[0]
    async with running(samples) as (app, pilot):
        screen = await article_screen(pilot, article.id)
        for _ in range(3):  # all -> proposed -> confirmed -> rejected: none of them yet
            await pilot.press("f")
            await settle(pilot)
        assert screen.status_filter == "rejected" and screen.units == []
        units = screen.query_one(OptionList)
        assert units.option_count == 1 and units.get_option_at_index(0).disabled
        shown = " ".join(screen_text(app).split())
        assert "No units with status rejected." in shown and "f: next status" in shown, shown


async def test_a_search_without_matches_says_so(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        await searched(pilot, "zqxjkv")
        assert "No matches" in screen_text(app)
        await pilot.press("enter")  # nothing to open: the modal stays
        await settle(pilot)
        assert "No matches" in screen_text(app)


async def test_an_empty_library_says_how_to_fill_it(svc: Services) -> None:
    async with running(svc) as (app, pilot):
        await pilot.press("l")
        await settle(pilot)
        assert "The library is empty. Press i to import" in screen_text(app)


def _lists_every_format(shown: str) -> list[str]:
    """The importable suffixes the text does not name (".htm" is not named by ".html")."""
    from core.ingest import SUPPORTED_SUFFIXES

    return [s for s in SUPPORTED_SUFFIXES if not re.search(re.escape(s) + r"(?![\w])", shown)]


async def test_the_empty_home_and_library_name_every_format_the_readers_take(svc: Services) -> None:
    """Issue 32: they said ".txt, .md" while PDF, EPUB, DOCX, web pages and reStructuredText
    import too. Both read the readers' own list, so they stay true."""
    async with running(svc) as (app, pilot):
        shown = " ".join(screen_text(app).split())
        assert "Nothing imported yet" in shown and _lists_every_format(shown) == [], shown
        await pilot.press("l")
        await settle(pilot)
        shown = " ".join(screen_text(app).split())
        assert "The library is empty" in shown and _lists_every_format(shown) == [], shown
