"""Article: switching to the next unit draws again only what changed (a p95 of ~21 ms on the
bench's 1M-unit library, target one frame): the lines of the paragraphs whose evidence or
cursor changed and the view's bottom border (the cursor's place), no layout when the unit's card
keeps its height, and no read of where the evidence is when its page is fetched. Setting the border's subtitle and the cursor (a reactive that repaints) each
refreshed the whole paragraph window, which Textual then rendered and composited line by line."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from conftest import article_screen, imported, running, screen_text, settle
from spies import noted, says
from textual.widgets import OptionList

from core.domain import SelectedSpan
from core.services.bootstrap import Services

ARTICLE = """# Libraries

About 42 percent of adults in Oslo never visit a public library in a given year.

About 38 percent of adults in Rome never visit a public library in a given year.

Reading rooms stay open late on weekdays in most large towns.
"""


def _article_with_two_clozes(svc: Services, tmp_path: Path) -> int:
    """The article with two clozes of yours, last in its unit list, on its first and second
    paragraphs (both on screen), of one shape: their cards are as tall."""
    article_id = imported(svc, tmp_path / "libraries.md", ARTICLE)
    for pid, word in (("p_001", "Oslo"), ("p_002", "Rome")):
        text = svc.library.paragraph(article_id, pid).text  # type: ignore[union-attr]
        start = text.index(word)
        svc.authoring.cloze(article_id, [SelectedSpan(pid, start, start + len(word), word)])
    return article_id


def drawn(view: Any) -> AbstractContextManager[list[object]]:
    """While on: each screen layout ("layout") and each content line of the paragraph view
    styled again, by Textual or by line_memo's quick styling, by its content y (the lines it
    keeps styled are not). Other widgets' lines note None."""
    from textual._styles_cache import StylesCache
    from textual.screen import Screen

    from tui.widgets.line_memo import StyledLines

    def line(cache: StylesCache, styles: Any, y: int, size: Any, *args: Any) -> int | None:
        return y - 1 if cache is view._styles_cache and 0 < y < size.height - 1 else None  # not the border

    def styled(kept: StyledLines, widget: Any, raw: Any, y: int) -> int | None:
        return y - 1 if widget is view else None

    return noted(
        (Screen, "_refresh_layout", says("layout")),
        (StylesCache, "render_line", line),
        (StyledLines, "_style", styled),
    )


async def test_the_next_unit_draws_only_the_paragraphs_it_touches(svc: Services, tmp_path: Path) -> None:
    from tui.widgets.paragraph_view import ParagraphView

    article_id = _article_with_two_clozes(svc, tmp_path)
    async with running(svc) as (app, pilot):
        screen = await article_screen(pilot, article_id)
        view = screen.query_one(ParagraphView)
        mine = len(screen.units) - 2
        screen.query_one("#article-units", OptionList).highlighted = mine  # the first of yours
        await settle(pilot)
        first, second = (screen.units[i].evidence[0].paragraph_id for i in (mine, mine + 1))
        assert (first, second) == ("p_001", "p_002")
        assert view.cursor == 0
        with noted((svc.library, "paragraph", lambda *args: args)) as reads, drawn(view) as calls:
            await pilot.press("n")  # the next unit: its evidence, the paragraph after, in view
            await settle(pilot)
        assert reads == []  # where its evidence is: the view has its page
        assert view.cursor == 1 and view.top == 0
        assert "¶ 2/3" in screen_text(app)  # the bottom border line was drawn again
        touched = {y for y, index in enumerate(view._rows) if index in (0, 1)}  # old and new
        assert "layout" not in calls, calls
        lines = {y for y in calls if isinstance(y, int)}
        assert lines and lines <= touched, (lines, touched)
