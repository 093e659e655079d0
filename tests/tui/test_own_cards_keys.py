"""Issue 16, by keys only: select a span in the Article screen, make a cloze of it, find it in
Review and answer it; undo takes a card you made back (to the trash)."""

from __future__ import annotations

from pathlib import Path

from conftest import SIZE, imported, make_app, running, searched, settle

from core.domain import READER
from core.services.bootstrap import Services

ARTICLE = """# Libraries

About 42 percent of adults never visit a public library in a given year.

Public libraries lend books, films and music to anyone with a card.
"""


def _import(svc: Services, tmp_path: Path) -> int:
    return imported(svc, tmp_path / "libraries.md", ARTICLE)


async def _open_article(pilot) -> None:  # type: ignore[no-untyped-def]
    """From Home by keys: the Library, then the (only) article."""
    from tui.screens.article import ArticleScreen

    await settle(pilot)
    await pilot.press("l", "enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ArticleScreen)


def _yours(svc: Services, article_id: int) -> list:  # type: ignore[type-arg]
    return [u for u in svc.library.units(article_id, ["confirmed", "proposed"]) if u.extractor == READER]


async def test_select_make_a_cloze_review_it_and_answer(svc: Services, tmp_path: Path) -> None:
    from tui.screens.article import ArticleScreen
    from tui.screens.review import ReviewScreen

    article_id = _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await pilot.press("l", "enter")  # Library, open the article
        await settle(pilot)
        assert isinstance(app.screen, ArticleScreen)
        await pilot.press("home")  # the cursor on the first paragraph, at its first word
        keys = ["right", "v", "shift+right", "c"]  # from the Article cursor to a saved card
        for key in keys:
            await pilot.press(key)
        await settle(pilot)
        assert len(keys) <= 6
        (mine,) = _yours(svc, article_id)
        assert mine.status == "confirmed"
        assert mine.content == "About 42 percent of adults never visit a public library in a given year."
        assert [(q.question, q.expected_answer, q.kind) for q in mine.questions] == [
            ("About ____ of adults never visit a public library in a given year.", "42 percent", "cloze")
        ]
        assert [e.quote for e in mine.evidence] == [mine.content]
        await pilot.press("escape", "escape", "r")  # Home, Review
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        assert screen.item.question == "About ____ of adults never visit a public library in a given year."
        await pilot.press("space", "3")
        await settle(pilot)
        assert screen.answered, "the answer was saved"
        # the only card of the day, answered Good: a learning step, back in ten minutes
        assert screen.item is not None and screen.item.card.unit_id == mine.id
        assert screen.item.card.state_label == "learning" and screen.item.card.last_review is not None


async def test_undo_takes_a_card_you_made_back_to_the_trash(svc: Services, tmp_path: Path) -> None:

    article_id = _import(svc, tmp_path)
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        await _open_article(pilot)
        await pilot.press("home", "down", "v", "c")  # "Public" as the blank
        await settle(pilot)
        made = _yours(svc, article_id)
        await pilot.press("u")
        await settle(pilot)
        assert made and not _yours(svc, article_id)
        trashed = svc.library.unit(made[0].id)
        assert trashed is not None and trashed.status == "trashed"


async def test_summary_and_core_ideas_shown_and_one_becomes_a_unit(samples: Services) -> None:
    from textual.widgets import OptionList

    from tui.screens.article import ArticleScreen

    article = samples.library.articles()[0]
    output = samples.authoring.ideas(article.id)
    assert output is not None and output.core_ideas and output.summary
    async with running(samples) as (app, pilot):
        await _open_article(pilot)
        screen = app.screen
        assert isinstance(screen, ArticleScreen) and screen.article_id == article.id
        await pilot.press("s")
        await settle(pilot)
        ideas = screen.query_one("#article-ideas", OptionList)
        assert ideas.display and ideas.option_count == len(output.core_ideas) + 1
        shown = str(ideas.get_option_at_index(1).prompt)
        assert (
            output.core_ideas[0].idea[:30] in shown and output.core_ideas[0].evidence[0].quote[:30] in shown
        )
        assert output.summary[:30] in str(ideas.get_option_at_index(0).prompt)
        await pilot.press("m")
        await settle(pilot)
        (mine,) = _yours(samples, article.id)
        assert mine.content == output.core_ideas[0].idea and mine.status == "confirmed"
        assert [e.quote for e in mine.evidence] == [e.quote for e in output.core_ideas[0].evidence]


async def test_a_cloze_over_two_paragraphs_is_refused_with_the_reason(svc: Services, tmp_path: Path) -> None:
    article_id = _import(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _open_article(pilot)
        await pilot.press("home", "v", "right_curly_bracket", "right_curly_bracket", "c")
        await settle(pilot)
        assert not _yours(svc, article_id)  # nothing saved
        shown = [str(n.message) for n in app._notifications]
        assert any("saving the cloze: a cloze blanks words of one paragraph" in m for m in shown), shown


async def test_select_in_review_after_the_reveal_and_make_a_cloze(svc: Services, tmp_path: Path) -> None:
    from tui.screens.review import ReviewScreen

    article_id = _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await _open_article(pilot)
        await pilot.press("home", "right", "v", "shift+right", "c")  # "42 percent": a card to review
        await settle(pilot)
        await pilot.press("escape", "escape", "r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("v")  # before the reveal: not yet
        await settle(pilot)
        assert not screen.query_one("#review-select").display
        await pilot.press("space", "v")
        await settle(pilot)
        assert screen.query_one("#review-select").display
        await pilot.press("right", "right", "right", "right", "v", "c")  # "adults", from the evidence
        await settle(pilot)
        blanks = sorted(q.expected_answer for u in _yours(svc, article_id) for q in u.questions)
        assert blanks == ["42 percent", "adults"]
        assert not screen.query_one("#review-select").display  # back to the card
        assert app.screen is screen
        await pilot.press("u")  # the card made here is taken back first
        await settle(pilot)
        blanks = sorted(q.expected_answer for u in _yours(svc, article_id) for q in u.questions)
        assert blanks == ["42 percent"]


async def test_a_mouse_drag_on_the_ids_selects_whole_paragraphs(svc: Services, tmp_path: Path) -> None:
    from textual.events import MouseMove

    from tui.widgets.paragraph_view import ParagraphView

    _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await _open_article(pilot)
        view = app.screen.query_one(ParagraphView)
        view.go_to(0, top=True)
        await settle(pilot)
        # in the gutter (its ids): a drag in the text selects characters (test_paragraph_mouse.py)
        await pilot.mouse_down(view, offset=(3, 1))  # the first paragraph (inside the border)
        await pilot._post_mouse_events([MouseMove], view, (3, 4), button=1)  # down to the second
        await pilot.mouse_up(view, offset=(3, 4))
        await settle(pilot)
        spans = view.selected_spans()
        assert [s.paragraph_id for s in spans] == ["p_001", "p_002"]
        assert [s.text for s in spans] == [view.paragraph_at(0).text, view.paragraph_at(1).text]


async def test_n_opens_the_form_on_the_selection_and_saves_a_unit_of_yours(
    svc: Services, tmp_path: Path
) -> None:
    from textual.widgets import TextArea

    from tui.modals.edit_unit import EditUnitModal

    article_id = _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await _open_article(pilot)
        await pilot.press("home", "v", "right_parenthesis", "n")  # the whole first sentence
        await settle(pilot)
        form = app.screen
        assert isinstance(form, EditUnitModal)
        sentence = "About 42 percent of adults never visit a public library in a given year."
        assert form.query_one("#edit-content", TextArea).text == sentence
        assert form.rows(), "the card writer's questions are prefilled"
        form.query_one("#edit-content", TextArea).text = sentence.replace("42 percent", "90 percent")
        await pilot.press("ctrl+s", "ctrl+s")  # a contradiction: never saved, however often
        await settle(pilot)
        assert isinstance(app.screen, EditUnitModal) and not _yours(svc, article_id)
        form.query_one("#edit-content", TextArea).text = sentence
        await pilot.press("ctrl+t", "ctrl+s")  # another type, then save
        await settle(pilot)
        (mine,) = _yours(svc, article_id)
        assert mine.content == sentence and mine.status == "confirmed" and mine.questions
        assert [e.quote for e in mine.evidence] == [sentence]


async def test_the_in_app_search_tells_yours_from_proposed(svc: Services, tmp_path: Path) -> None:
    from tui.widgets.search_filters import FilterBar

    article_id = _import(svc, tmp_path)
    async with running(svc) as (_, pilot):
        await _open_article(pilot)
        await pilot.press("home", "right", "v", "shift+right", "c")  # a cloze of yours
        await settle(pilot)
        (mine,) = _yours(svc, article_id)
        modal = await searched(pilot, "adults")
        await pilot.press("ctrl+f", "o")  # origin: yours
        await settle(pilot)
        assert modal.query_one(FilterBar).filters.origin == "yours"
        assert [h.unit_id for h in modal._hits] == [mine.id]
        await pilot.press("o")  # extracted
        await settle(pilot)
        assert modal._hits and mine.id not in [h.unit_id for h in modal._hits]
        assert "origin extracted" in str(modal.query_one(FilterBar).render())
