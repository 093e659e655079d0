"""Article: page down draws paragraphs measured while the reader read the page before. Laying
out a page's new paragraphs was most of a page down (p95 17-23 ms on the bench's 5,000-paragraph
article, target one frame): the window now lays out the pages below and above in a worker once
a page is on screen, so the key itself lays out at most the paragraph the cursor lands on (its
cursor word is drawn on it), and styles their lines as the paint would (Textual's styling of
45 new lines was a third of what was left): the paint styles only the cursor paragraph's. The
kept paragraphs are the most recently drawn ones: clearing them all once 512 were kept made
the page after that lay out its paragraphs again."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.visual import Visual

from core.domain import SourceParagraph
from tui.widgets.paragraph_view import ParagraphView

TEXT = "memory rests on recall spaced over days and weeks so that what was read stays"
WORDS = TEXT.split(" ")
PARAGRAPHS = [
    SourceParagraph(f"p_{i + 1:04d}", " ".join(WORDS[: 4 + i % 11] * (1 + i % 4)), "paragraph", i)
    for i in range(3000)
]


def fetch(start: int, limit: int) -> Sequence[SourceParagraph]:
    return PARAGRAPHS[start : start + limit]


class ViewApp(App[None]):
    CSS = "ParagraphView { border: round $primary; }"  # as the Article's (its lines are y 1 to h-2)

    def compose(self) -> ComposeResult:
        yield ParagraphView()

    def on_mount(self) -> None:
        self.query_one(ParagraphView).load(len(PARAGRAPHS), fetch)


@asynccontextmanager
async def viewing() -> AsyncIterator[tuple[ViewApp, Any, ParagraphView]]:
    """The paragraphs in a view run at 80x60 and drawn once: (app, pilot, view)."""
    app = ViewApp()
    async with app.run_test(size=(80, 60)) as pilot:
        await pilot.pause()
        yield app, pilot, app.query_one(ParagraphView)


def laid_out(calls: list[object]) -> Any:
    """Visual.to_strips noting each paragraph's text laid out (wrapped into lines) by Textual."""
    to_strips = Visual.to_strips

    def counted(widget: Any, visual: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(visual)
        return to_strips(widget, visual, *args, **kwargs)

    return counted


async def test_page_down_lays_out_only_the_paragraph_the_cursor_lands_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with viewing() as (app, pilot, view):
        assert view.has_focus

        async def page(direction: int) -> int:
            """The paragraphs a page key laid out, after the reader read the page."""
            await app.workers.wait_for_complete()
            await pilot.pause()
            calls: list[object] = []
            with monkeypatch.context() as patch:
                patch.setattr(Visual, "to_strips", laid_out(calls))
                view.action_page(direction)
            await pilot.pause()
            return len(calls)

        per_key = [await page(1) for _ in range(45)]  # ~15 a page: past the 512 kept before
        assert view.top > 512
        assert max(per_key) <= 1, per_key
        # ... and back up the way it came: the pages above were kept or laid out ahead too
        assert max([await page(-1) for _ in range(5)]) <= 1


def styled(view: ParagraphView, calls: list[int]) -> Any:
    """StyledLines._style noting each content line of the view styled for a paint (by its y
    in the view), not those the lay-out ahead styles (for a page to come)."""
    from tui.widgets.line_memo import StyledLines

    style_line = StyledLines._style

    def line(kept: StyledLines, widget: Any, raw: Any, y: int) -> Any:
        ahead = any(sys._getframe(up).f_code.co_name == "style_ahead" for up in (1, 2, 3))
        if widget is view and not ahead:
            calls.append(y)
        return style_line(kept, widget, raw, y)

    return line


async def test_page_down_paints_lines_styled_ahead_but_the_cursor_paragraphs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.widgets.line_memo import StyledLines

    async with viewing() as (app, pilot, view):
        for _ in range(8):
            await app.workers.wait_for_complete()
            await pilot.pause()
            lines: list[int] = []
            with monkeypatch.context() as patch:
                patch.setattr(StyledLines, "_style", styled(view, lines))
                view.action_page(1)
                await pilot.pause()  # painted (the lay-out ahead waits a frame)
            cursor_lines = view._rows.count(view.cursor)
            assert lines and len(lines) <= cursor_lines, (lines, cursor_lines)
