"""An edit of a unit's content asks the questions built from the old content again of the new
one (issue 32, item 5): core/services/restate.py through CurationService.edit."""

from __future__ import annotations

from pathlib import Path

from core.services.bootstrap import Services
from core.services.restate import Restated, restate

BEFORE = "The survey found that 42 percent of adults never visit a public library."
CLOZE = ("The survey found that ____ of adults never visit a public library.", "42 percent", "cloze")
QA = ("What share of adults never visit a library?", "42 percent", "qa")


def test_a_changed_blank_a_changed_word_and_chinese() -> None:
    assert restate(BEFORE, BEFORE.replace("42", "90"), [CLOZE, QA], [CLOZE, QA]) == Restated(
        [(CLOZE[0], "90 percent", "cloze"), (QA[0], "90 percent", "qa")], 2, ()
    )
    children = BEFORE.replace("adults", "children")
    assert restate(BEFORE, children, [CLOZE, QA], [CLOZE, QA]).questions == [
        ("The survey found that ____ of children never visit a public library.", "42 percent", "cloze"),
        ("What share of children never visit a library?", "42 percent", "qa"),
    ]
    zh = "艾宾浩斯在1885年发表了遗忘曲线。"
    cloze = ("艾宾浩斯在____年发表了遗忘曲线。", "1885", "cloze")
    assert restate(zh, zh.replace("1885", "1886"), [cloze], [cloze]).questions == [
        ("艾宾浩斯在____年发表了遗忘曲线。", "1886", "cloze")
    ]


def test_the_readers_own_rewording_and_an_unchanged_content_stay() -> None:
    mine = ("How many adults skip libraries?", "most", "qa")
    assert restate(BEFORE, BEFORE.replace("42", "90"), [CLOZE, mine], [CLOZE, QA]).questions[1] == mine
    assert restate(BEFORE, BEFORE, [CLOZE], [CLOZE]) == Restated([CLOZE], 0, ())


def test_an_answer_the_edit_took_out_is_left_for_the_validator(services: Services, tmp_path: Path) -> None:
    path = tmp_path / "library.md"
    path.write_text(f"# Libraries\n\n{BEFORE}\n", encoding="utf-8")
    (outcome,) = services.library.import_paths([path], extractor="offline")
    (unit,) = services.library.units(outcome.article_id)
    asked = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    assert asked == [CLOZE]
    edited = services.curation.edit(
        unit.id,
        content=BEFORE.replace("42", "90"),
        memory_type=unit.memory_type,
        tags=unit.tags,
        questions=asked,
    )
    report = edited.report
    assert edited.reasked  # the question given was asked again of the new content
    stored = services.library.unit(unit.id)
    assert stored is not None and [q.expected_answer for q in stored.questions] == ["90 percent"]
    assert {i.code for i in report.issues if i.severity == "error"} == {
        "claim_contradicts_number"
    }  # vs the quote
    services.curation.edit(
        unit.id,
        content="The survey found that adults never visit a public library.",  # the figure taken out
        memory_type=unit.memory_type,
        tags=unit.tags,
        questions=[(q.question, q.expected_answer, q.kind) for q in stored.questions],
    )
    after = services.library.unit(unit.id)
    assert after is not None and not after.acceptable
    lost = [i for i in after.issues if i.code == "claim_question_lost"]
    assert len(lost) == 1 and lost[0].severity == "error" and not lost[0].keepable
