"""The reader never reads the database while painting: pages are fetched when the window
moves (load, jump, page, scroll, resize), so a failed read is reported by the screen's fetch,
and render_line only paints what is already here."""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from textual.app import App, ComposeResult
from textual.events import MouseScrollDown, MouseScrollUp

from core.domain import SourceParagraph
from tui.widgets.paragraph_view import PAGE, ParagraphView

PARAGRAPHS = [
    SourceParagraph(f"p_{i + 1:03d}", f"Paragraph {i} says a few words.", "paragraph", i) for i in range(700)
]
WHILE_PAINTING: list[int] = []
FETCHED: list[int] = []


def fetch(start: int, limit: int) -> Sequence[SourceParagraph]:
    FETCHED.append(start)
    if any(frame.function in {"render_line", "render_lines"} for frame in inspect.stack()):
        WHILE_PAINTING.append(start)
    return PARAGRAPHS[start : start + limit]


class ViewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ParagraphView()

    def on_mount(self) -> None:
        self.query_one(ParagraphView).load(len(PARAGRAPHS), fetch)


async def test_no_page_is_fetched_while_painting() -> None:
    WHILE_PAINTING.clear()
    FETCHED.clear()
    app = ViewApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)
        for _ in range(PAGE + 10):  # the wheel moves the window past a page boundary
            view.post_message(MouseScrollDown(view, 1, 1, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert view.top > PAGE
        view.go_to(450)
        await pilot.pause()
        view.action_page(1)
        await pilot.pause()
        await pilot.resize_terminal(80, 60)
        await pilot.pause()
        for _ in range(3):
            view.post_message(MouseScrollUp(view, 1, 1, 0, -1, 0, False, False, False))
        await pilot.pause()
    assert len(set(FETCHED)) >= 3  # the moves did fetch new pages ...
    assert WHILE_PAINTING == []  # ... and none of them while painting
