"""The evidence browser's moves: a far jump scrolls to the same place as a step-by-step walk
would, a new unit's quotes redraw exactly the paragraphs they touch, and the unit card under the
list takes the height its content needs."""

from __future__ import annotations

from collections.abc import Sequence

from conftest import article_screen, make_app
from textual.app import App, ComposeResult
from textual.widgets import Static

from core.domain import SourceParagraph
from core.services.bootstrap import Services
from tui.widgets.paragraph_view import ParagraphView

WORDS = [
    "spaced",
    "repetition",
    "schedules",
    "reviews",
    "at",
    "increasing",
    "intervals",
    "so",
    "memories",
    "last",
    "longer",
]


def paragraph(i: int) -> SourceParagraph:
    words = [WORDS[(i * 7 + k) % len(WORDS)] for k in range(5 + (i * 37) % 90)]  # 1 to 8 lines
    return SourceParagraph(f"p_{i + 1:03d}", f"alpha{i} " + " ".join(words), "paragraph", i)


PARAGRAPHS = [paragraph(i) for i in range(600)]


def fetch(start: int, limit: int) -> Sequence[SourceParagraph]:
    return PARAGRAPHS[start : start + limit]


class ViewApp(App[None]):
    CSS = "ParagraphView > .paragraph-view--quote { text-style: underline; }"  # (the app's own rule is in screens.tcss)

    def compose(self) -> ComposeResult:
        yield ParagraphView()

    def on_mount(self) -> None:
        self.query_one(ParagraphView).load(len(PARAGRAPHS), fetch)


def expected_top(view: ParagraphView, old_top: int, cursor: int) -> int:
    """The rule, stated the slow way: the smallest top, not above the old one, with which the
    paragraphs from top to the cursor's first lines fit on the screen."""
    height = view.size.height
    heights = [len(view._strips(i)) for i in range(cursor + 1)]
    top = old_top
    while top < cursor and sum(heights[top:cursor]) + min(heights[cursor], height) > height:
        top += 1
    return top


def rendered(view: ParagraphView) -> list[str]:
    return ["".join(s.text for s in view.render_line(y)) for y in range(view.size.height)]


async def test_a_far_jump_lands_where_the_walk_would() -> None:
    app = ViewApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)
        for old, target in ((0, 450), (450, 452), (452, 599), (599, 10), (10, 11)):
            assert view.top <= view.cursor == old or old == 0
            want = expected_top(view, view.top, target) if target > view.cursor else min(view.top, target)
            view.go_to(target)
            assert view.top == want, (old, target)
            assert any(line.startswith(f"p_{target + 1:03d}") for line in rendered(view))


async def test_changed_quotes_redraw_the_paragraphs_they_touch() -> None:
    app = ViewApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.query_one(ParagraphView)

        def styled() -> set[str]:
            out = set()
            for y in range(view.size.height):
                for segment in view.render_line(y):
                    if segment.style is not None and segment.style.underline and segment.text.strip():
                        out.add(segment.text.strip())
            return out

        view.set_evidence({"p_001": ["alpha0"]})
        assert styled() == {"alpha0"}
        view.set_evidence({"p_001": ["alpha0"], "p_002": ["alpha1"]})
        assert styled() == {"alpha0", "alpha1"}
        view.set_evidence({"p_002": ["alpha1"]})  # p_001's highlight goes, from the cache too
        assert styled() == {"alpha1"}
        view.set_evidence({"p_002": ["alpha1", "spaced"]})  # the same paragraph, another quote
        assert styled() == {"alpha1", "spaced"}
        view.set_evidence({})
        assert styled() == set()


async def test_the_unit_card_takes_the_height_of_its_content(samples: Services) -> None:
    article = next(a for a in samples.library.articles() if a.title.lower().startswith("photosynthesis"))
    app = make_app(samples)
    async with app.run_test(size=(160, 90)) as pilot:  # tall enough for every card (max-height 50%)
        screen = await article_screen(pilot, article.id)
        card = screen.query_one("#article-unit", Static)
        heights = set()
        for index in range(len(screen.units)):
            screen._show_unit(index)
            await pilot.pause()
            width = card.content_region.width
            need = card.render().get_height(card.styles, width)  # type: ignore[union-attr]
            assert card.content_region.height == need, index
            heights.add(need)
        assert len(heights) > 1  # the walk did go through cards of different heights
