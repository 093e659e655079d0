"""Issue 16 below the screens: a cloze and a unit of yours from a selection (yours, confirmed,
cards made, undo trashes them), a contradiction refused, search and stats tell yours from
proposed ones, and the selection steps of the paragraph view (exact spans, word edges)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.domain import READER, CurationUndo, SelectedSpan
from core.domain.review import UndoResult
from core.domain.search import SearchFilters
from core.domain.undo import Scope
from core.services.bootstrap import Services
from core.services.card_checks import CannotMake, split_point
from tui.widgets import text_cursor as tc

TEXT = "The survey found that 42 percent of adults never visit a public library. Libraries lend books."


def _article(services: Services, tmp_path: Path) -> int:
    path = tmp_path / "survey.md"
    path.write_text(
        f"# Survey\n\n{TEXT}\n\nA second paragraph about reading habits of adults.\n", encoding="utf-8"
    )
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.article_id is not None
    return outcome.article_id


def _span(text: str, part: str) -> SelectedSpan:
    start = text.index(part)
    return SelectedSpan("p_001", start, start + len(part), part)


def test_a_cloze_of_yours_is_confirmed_with_its_card_and_undo_trashes_it(
    services: Services, tmp_path: Path
) -> None:
    article_id = _article(services, tmp_path)
    made = services.authoring.cloze(article_id, [_span(TEXT, "42 percent")])
    unit = services.library.unit(made.unit_id)
    assert unit is not None and unit.extractor == READER and unit.status == "confirmed"
    assert unit.content == "The survey found that 42 percent of adults never visit a public library."
    assert unit.questions[0].question == "The survey found that ____ of adults never visit a public library."
    assert services.undo.undo(Scope.CURATION, article_id).unit_id == unit.id
    assert services.library.unit(unit.id).status == "trashed"  # type: ignore[union-attr]
    assert services.curation.restore(unit.id)
    assert services.library.unit(unit.id).status == "confirmed"  # type: ignore[union-attr]


def test_a_unit_of_yours_is_checked_against_its_quote(services: Services, tmp_path: Path) -> None:
    article_id = _article(services, tmp_path)
    spans = [_span(TEXT, "42 percent of adults never visit a public library")]
    draft = services.authoring.draft(article_id, spans)
    assert draft.content == spans[0].text and draft.questions  # the card writer's forms
    with pytest.raises(CannotMake, match="42 percent"):
        services.authoring.make(
            article_id, spans, content="90 percent of adults never visit a public library",
            memory_type="claim", tags=(), questions=(("Who never visit?", "adults", "qa"),),
        )  # fmt: skip
    assert not [u for u in services.library.units(article_id) if u.extractor == READER]  # nothing saved
    made = services.authoring.make(
        article_id, spans, content=draft.content, memory_type=draft.memory_type, tags=("libraries",),
        questions=tuple((q.question, q.expected_answer, q.kind) for q in draft.questions),
    )  # fmt: skip
    assert [e.quote for e in services.library.unit(made.unit_id).evidence] == [spans[0].text]  # type: ignore[union-attr]


def test_a_selection_not_in_the_text_is_refused(services: Services, tmp_path: Path) -> None:
    article_id = _article(services, tmp_path)
    with pytest.raises(CannotMake, match="select it again"):
        services.authoring.cloze(article_id, [SelectedSpan("p_001", 0, 3, "Xyz")])


def test_search_and_stats_tell_yours_from_proposed(services: Services, tmp_path: Path) -> None:
    from tui.cli.main import cli

    article_id = _article(services, tmp_path)
    made = services.authoring.cloze(article_id, [_span(TEXT, "42 percent")])
    yours = services.search.search("survey", 10, SearchFilters(origin="yours"))
    assert [h.unit_id for h in yours] == [made.unit_id]
    extracted = services.search.search("survey", 10, SearchFilters(origin="extracted"))
    assert made.unit_id not in [h.unit_id for h in extracted]
    assert services.stats.units_by_origin() == {"yours": 1, "extracted": 0}
    result = CliRunner().invoke(cli, ["search", "survey", "--origin", "yours", "--json"])
    assert result.exit_code == 0, result.output
    assert [h["unit_id"] for h in json.loads(result.output)["hits"]] == [made.unit_id]


def test_split_point_prefers_a_sentence_break_then_a_clause() -> None:
    assert split_point("One thing happens. Another follows it.") == (
        "One thing happens.",
        "Another follows it.",
    )
    assert split_point("Light is absorbed, and sugar is made") == ("Light is absorbed", "and sugar is made")
    assert split_point("光被吸收，糖被制造。") == ("光被吸收", "糖被制造。")
    assert split_point("One clause only") is None


def _texts(*paragraphs: str):  # type: ignore[no-untyped-def]
    return lambda i: paragraphs[i] if 0 <= i < len(paragraphs) else None


def test_selection_steps_keep_exact_word_edges_across_paragraphs() -> None:
    text = _texts("Plants make sugar. They need light, too!", "光合作用需要光。它很重要。", "  ")
    sel = tc.word_selection(0, "Plants make sugar. They need light, too!", 1)
    assert sel is not None and sel.parts(text) == [(0, (7, 11))]  # "make"
    sel = tc.by_word(sel, text, 1)
    assert sel.parts(text) == [(0, (7, 17))]  # "make sugar"
    sel = tc.by_sentence(sel, text, 1)
    assert sel.parts(text) == [(0, (0, 18))]  # the whole sentence, with its full stop
    sel = tc.by_sentence(sel, text, 1)
    assert sel.parts(text) == [(0, (0, 40))]
    sel = tc.by_word(sel, text, 1)  # into the next paragraph: its first word (光合作用, segmented)
    assert sel.parts(text) == [(0, (0, 40)), (1, (0, 4))]
    sel = tc.by_paragraph(sel, text, 1)
    assert sel.parts(text) == [(0, (0, 40)), (1, (0, 13))]
    assert tc.by_paragraph(sel, text, 1) == sel  # a blank paragraph is never selected
    sel = tc.by_paragraph(sel, text, -1)
    assert sel.parts(text) == [(0, (0, 40))]
    sel = tc.by_word(tc.by_word(sel, text, -1), text, -1)
    assert sel.parts(text) == [(0, (0, 34))]  # back over "too", then "light" ends it


def test_a_card_made_in_review_is_undone_there_before_the_answer_it_followed(
    services: Services, tmp_path: Path
) -> None:
    """Review's u reads the one journal's Review scope: the card made there after an answer is
    taken back first, then the answer; Triage's undo of the article does not take it."""
    article_id = _article(services, tmp_path)
    first = services.authoring.cloze(article_id, [_span(TEXT, "42 percent")])
    services.review.start_session()
    item = services.review.next_card()
    assert item is not None
    services.review.answer(item.card.id, 3)
    made = services.authoring.cloze(article_id, [_span(TEXT, "adults")], scope=Scope.REVIEW)
    undone = services.undo.undo(Scope.REVIEW)
    assert isinstance(undone, CurationUndo) and undone.unit_id == made.unit_id and not undone.changed_since
    assert services.library.unit(made.unit_id).status == "trashed"  # type: ignore[union-attr]
    answer = services.undo.undo(Scope.REVIEW)
    assert isinstance(answer, UndoResult) and answer.action == "rate" and answer.card_id == item.card.id
    step = services.undo.undo(Scope.CURATION, article_id)  # the card made in the Article
    assert step is not None and step.unit_id == first.unit_id
    assert services.undo.undo(Scope.CURATION, article_id) is None
