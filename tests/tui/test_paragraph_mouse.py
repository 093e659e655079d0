"""Issue 16, "mouse drag selects too": a drag in the Article's paragraph view selects exactly the
characters from the press to the pointer, on one wrapped line, across a line break, across
paragraphs and backwards; English and Chinese (two cells a character). The words are found where
the view draws them (its strips), so the test checks the mapping against the real drawing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from conftest import imported, running, settle
from rich.cells import cell_len

from core.services.bootstrap import Services

SIZE = (100, 30)  # a narrow text column: the paragraphs wrap
EN = (
    "Spaced repetition schedules each review just before you would forget, so that the interval "
    "between reviews grows with every successful recall and memories last for years."
)
ZH = "间隔重复在你快要忘记之前安排复习，每次成功回忆之后间隔都会变长，记忆因此可以保持很多年而不会轻易消失。"
ARTICLE = f"# Memory\n\n{EN}\n\n{ZH}\n\nA closing line.\n"


def _find(view, needle: str, nth: int = 0) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The content cell (x, y) where the view draws `needle` (its `nth` appearance)."""
    seen = 0
    for y in range(view.size.height):
        line = view.render_line(y).text
        at = line.find(needle)
        while at >= 0:
            if seen == nth:
                return cell_len(line[:at]), y
            seen += 1
            at = line.find(needle, at + 1)
    raise AssertionError(f"{needle!r} is not drawn")


def _last_cell(view, needle: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The cell of the last character of `needle` (its second cell for a wide one)."""
    x, y = _find(view, needle)
    return x + cell_len(needle) - 1, y


async def _drag(pilot, view, start: tuple[int, int], end: tuple[int, int]) -> str:  # type: ignore[no-untyped-def]
    """Press at content cell `start`, move to `end` (pilot.hover: a move event), let go."""
    dx, dy = view.content_region.x - view.region.x, view.content_region.y - view.region.y
    await pilot.mouse_down(view, offset=(start[0] + dx, start[1] + dy))
    await pilot.hover(view, offset=(end[0] + dx, end[1] + dy))
    await pilot.mouse_up(view, offset=(end[0] + dx, end[1] + dy))
    await pilot.pause()
    return "|".join(s.text for s in view.selected_spans())


@asynccontextmanager
async def article_open(svc: Services, tmp_path: Path) -> AsyncIterator[tuple[Any, Any]]:
    """ARTICLE imported, the app running with it open in the Article screen, its first paragraph
    at the top: (pilot, the paragraph view)."""
    from tui.widgets.paragraph_view import ParagraphView

    imported(svc, tmp_path / "memory.md", ARTICLE)
    async with running(svc) as (_, pilot):
        await settle(pilot)
        await pilot.press("l", "enter")
        await settle(pilot)
        view = pilot.app.screen.query_one(ParagraphView)
        view.go_to(0, top=True)
        await settle(pilot)
        yield pilot, view


async def test_a_drag_selects_exact_characters_on_a_line_and_across_its_wrap(
    svc: Services, tmp_path: Path
) -> None:
    async with article_open(svc, tmp_path) as (pilot, view):
        _, first_y = _find(view, "Spaced")
        assert _find(view, "years.")[1] > first_y, "the paragraph must wrap for this test"
        assert await _drag(pilot, view, _find(view, "repetition"), _last_cell(view, "schedules")) == (
            "repetition schedules"
        )
        # half a word: exactly the characters passed over
        x, y = _find(view, "repetition")
        assert await _drag(pilot, view, (x + 3, y), (x + 6, y)) == "etit"
        # from a word on the first line to one on a later line: the wrap is not a gap
        assert (
            await _drag(pilot, view, _find(view, "review"), _last_cell(view, "memories"))
            == (EN[EN.index("review") : EN.index("memories") + len("memories")])
        )
        # backwards, from the end of "forget" to the start of "each"
        assert await _drag(pilot, view, _last_cell(view, "forget"), _find(view, "each")) == (
            "each review just before you would forget"
        )


async def test_a_drag_selects_chinese_characters_by_their_two_cells(svc: Services, tmp_path: Path) -> None:
    async with article_open(svc, tmp_path) as (pilot, view):
        x, y = _find(view, "复习")
        # from the second cell of 复 to the first cell of 习: either half of a character is it
        assert await _drag(pilot, view, (x + 1, y), (x + 2, y)) == "复习"
        start = _find(view, "每次")
        assert await _drag(pilot, view, start, _last_cell(view, "回忆")) == "每次成功回忆"
        assert _find(view, "消失")[1] > y, "the Chinese paragraph must wrap for this test"
        assert (
            await _drag(pilot, view, _find(view, "记忆因此"), _last_cell(view, "消失"))
            == (ZH[ZH.index("记忆因此") : ZH.index("消失") + 2])
        )


async def test_a_drag_over_two_paragraphs_selects_the_end_of_one_and_the_start_of_the_next(
    svc: Services, tmp_path: Path
) -> None:
    async with article_open(svc, tmp_path) as (pilot, view):
        assert (
            await _drag(pilot, view, _find(view, "years"), _last_cell(view, "间隔重复")) == "years.|间隔重复"
        )
        assert view.selection is not None
        (i, a), (j, b) = view.selection.start, view.selection.end
        assert j == i + 1 and view.text_of(i) == EN and view.text_of(j) == ZH
        assert (a, b) == (EN.index("years."), len("间隔重复"))  # exact offsets in each text


def test_a_cell_maps_to_the_raw_text_past_what_sanitising_changes() -> None:
    """A tab is drawn as four spaces and a control character not at all (tui/safe.styled): the
    offsets are still those of the raw text, which the selection and the validator use."""
    from tui.widgets.paragraph_text import char_at

    assert [char_at("a\tb", 20, 0, x) for x in range(6)] == [0, 1, 1, 1, 1, 2]
    assert [char_at("a\x1bbc", 20, 0, x) for x in range(3)] == [0, 2, 3]
    assert char_at("ab\ncd", 20, 1, 1) == 4  # the second line of a paragraph with a newline
    assert char_at("ab", 20, 3, 0) == 2  # below the text (the blank line after it): its end
