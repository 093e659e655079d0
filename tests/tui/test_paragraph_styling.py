"""The paragraph window's lines styled by tui/widgets/line_memo.py without Textual's
StylesCache.render_line for each: a content line of a widget with no tint, opacity or hatch
is the line padded to the content width with the border's side cells around it, cells taken
from Textual's styling of one blank line. The picture is Textual's own, focused or not, after
a page down and in another theme, and a tinted window is styled by Textual line by line."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from core.domain import SourceParagraph
from tui.widgets.paragraph_view import ParagraphView

TEXT = "memory rests on recall spaced over days and weeks so that what was read stays 记忆"
PARAGRAPHS = [SourceParagraph(f"p_{i + 1:03d}", TEXT * (1 + i % 3), "paragraph", i) for i in range(300)]


def fetch(start: int, limit: int) -> Sequence[SourceParagraph]:
    return PARAGRAPHS[start : start + limit]


class ViewApp(App[None]):
    CSS = "ParagraphView { border: round $primary; }"  # as the Article's

    def compose(self) -> ComposeResult:
        yield ParagraphView()

    def on_mount(self) -> None:
        self.query_one(ParagraphView).load(len(PARAGRAPHS), fetch)


def pictures(view: ParagraphView) -> tuple[list[list[object]], list[list[object]]]:
    """The window's lines as drawn (the kept, quickly styled ones) and as Textual's own path
    styles them (its line cache emptied first)."""
    whole = Region(0, 0, *view.size)
    ours = [list(strip) for strip in view.render_lines(whole)]
    view._styles_cache.clear()
    textual = [list(strip) for strip in Widget.render_lines(view, whole)]
    return ours, textual


async def test_the_lines_are_textuals_focused_or_not_paged_and_in_another_theme() -> None:
    app = ViewApp()
    async with app.run_test(size=(70, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)
        assert view.has_focus
        for step in ("focused", "paged", "blurred", "theme", "tinted"):
            if step == "paged":
                view.action_page(1)
            elif step == "blurred":
                app.set_focus(None)
            elif step == "theme":
                app.theme = "textual-light"
            elif step == "tinted":
                view.styles.tint = "red 30%"
            await pilot.pause()
            ours, textual = pictures(view)
            assert ours == textual, step


async def test_a_page_styled_ahead_does_not_style_each_line_through_textual(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Styling the lines of the page below (the lay-out ahead) called StylesCache.render_line
    once a line, ~0.1 ms each, 44 lines a page on the bench's article."""
    app = ViewApp()
    async with app.run_test(size=(70, 30)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        view = app.query_one(ParagraphView)
        calls: list[int] = []
        render_line = StylesCache.render_line

        def counted(cache: StylesCache, *args: object, **kwargs: object) -> object:
            calls.append(1)
            return render_line(cache, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(StylesCache, "render_line", counted)
        lines = sum(view.style_ahead(index) for index in range(100, 130))
        assert lines > 60
        assert len(calls) <= 1, len(calls)


async def test_laid_out_lines_are_not_run_through_link_styling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reader text has no clickable links (data, never markup): Textual's link styling of each
    line laid out (Strip._apply_link_style, and the widget's link style worked out for each
    paragraph) found nothing to style, a sixth of a paragraph's layout."""
    from textual.strip import Strip

    app = ViewApp()
    async with app.run_test(size=(70, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)
        calls: list[int] = []
        link_style = Strip._apply_link_style

        def counted(strip: Strip, style: object) -> Strip:
            calls.append(1)
            return link_style(strip, style)  # type: ignore[arg-type]

        monkeypatch.setattr(Strip, "_apply_link_style", counted)
        lines = sum(view.style_ahead(index) for index in range(100, 110))
        assert lines > 20
        assert calls == []


async def test_the_gutter_and_blank_lines_follow_a_theme_change() -> None:
    """The window's own style (the gutter under a paragraph's id, the blank line after it) is
    kept between paints and worked out again for another look."""
    app = ViewApp()
    async with app.run_test(size=(70, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)
        for theme in ("textual-light", "nord"):
            app.theme = theme
            await pilot.pause()
            second = view.render_line(1)  # the first paragraph's second line: the gutter blank
            gutter, *_ = list(second)
            assert gutter.text.strip() == "" and gutter.style == view.rich_style, theme
