"""The validator (the gate): every rule of issue 2 gives a coded issue with a location. (That no
input, however malformed, makes it raise: tests/test_validation_fuzz.py.)"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from core.domain import (
    ArticleMemoryOutput,
    CoreIdea,
    EvidenceSpan,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
    SourceParagraph,
    ValidationIssue,
    ValidationReport,
)
from core.validation import quote_in_paragraph, validate, validate_raw
from core.validation.cards import CARD_CODES

DOC = SourceDocument(
    document_id="doc_000000000000",
    source_path="/tmp/article.md",
    title="Article",
    paragraphs=(
        SourceParagraph("p_001", "How memory works", "heading", 0),
        SourceParagraph(
            "p_002",
            "Spaced repetition schedules each review just before you would forget.  The gaps grow.",
            "paragraph",
            1,
        ),
        SourceParagraph("p_003", "def review(card):\n    return card.due", "code", 2),
        SourceParagraph(
            "p_004", "Ebbinghaus called it the \u201cforgetting curve\u201d in 1885.", "paragraph", 3
        ),
        SourceParagraph(
            "p_005",
            "\u95f4\u9694\u91cd\u590d\u628a\u590d\u4e60\u5b89\u6392\u5728\u5feb\u8981\u5fd8\u8bb0\u7684\u65f6\u5019\u3002",
            "paragraph",
            4,
        ),
        SourceParagraph("p_006", "| a | b |\n|---|---|\n| 1 | 2 |", "table", 5),
        SourceParagraph(
            "p_007", "1 Introduction . . . . . . . . 1\n2 Methods . . . . . . . . 4", "contents", 6
        ),
    ),
)


def unit(content: str = "Reviews are timed just before forgetting.", **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "content": content,
        "memory_type": "claim",
        "evidence": [
            {
                "paragraph_id": "p_002",
                "quote": "Spaced repetition schedules each review just before you would forget.",
            }
        ],
        "tags": ["memory"],
        "confidence": 0.8,
    }
    base.update(kw)
    return base


def output(units: list[Any], questions: list[Any] | None = None, **kw: Any) -> dict[str, Any]:
    if questions is None:
        questions = [
            {"question": f"Q{i}?", "expected_answer": f"A{i}", "memory_unit_index": i, "kind": "qa"}
            for i in range(len(units))
        ]
    data: dict[str, Any] = {
        "summary": "s",
        "core_ideas": [],
        "memory_units": units,
        "recall_questions": questions,
    }
    data.update(kw)
    return data


def shape(report: ValidationReport) -> tuple[ValidationIssue, ...]:
    """Grounding and shape issues only: the card rules and the claim checks have tests of their
    own (tests/test_card_rules.py, tests/test_consistency.py)."""
    return tuple(i for i in report.issues if i.code not in CARD_CODES and not i.code.startswith("claim_"))


def codes(report: ValidationReport) -> set[tuple[str, str]]:
    return {(i.code, i.location) for i in shape(report)}


def test_a_well_grounded_output_is_valid() -> None:
    report = validate_raw(output([unit()]), DOC)
    assert shape(report) == ()
    assert report.ok


def test_domain_objects_and_dicts_are_judged_alike() -> None:
    domain = ArticleMemoryOutput(
        "s",
        (CoreIdea("idea", "why", (EvidenceSpan("p_002", "The gaps grow."),), 0.5),),
        (MemoryUnit("Reviews come before forgetting.", "claim", (EvidenceSpan("p_404", "x"),), (), 0.5),),
        (RecallQuestion("When?", "Before forgetting.", 0, "qa"),),
    )
    assert codes(validate(domain, DOC)) == {("unknown_paragraph", "memory_units[0].evidence[0]")}


def test_unknown_paragraph_id() -> None:
    bad = unit(evidence=[{"paragraph_id": "p_999", "quote": "anything"}])
    assert codes(validate_raw(output([bad]), DOC)) == {("unknown_paragraph", "memory_units[0].evidence[0]")}


def test_quote_not_in_its_paragraph() -> None:
    # The quote exists in p_004, but the unit cites p_002: that is not grounding.
    bad = unit(evidence=[{"paragraph_id": "p_002", "quote": "forgetting curve"}])
    report = validate_raw(output([bad]), DOC)
    assert codes(report) == {("quote_not_found", "memory_units[0].evidence[0]")}
    assert "p_002" in shape(report)[0].message


@pytest.mark.parametrize(
    ("paragraph_id", "quote"),
    [
        ("p_004", '"forgetting curve"'),  # straight quotes against curly ones in the text
        ("p_004", "\u201cFORGETTING CURVE\u201d"),  # case folded
        ("p_002", "forget.   The\n gaps grow."),  # whitespace collapsed
        ("p_002", "\uff33paced repetition"),  # NFKC: fullwidth S
        ("p_005", "\u95f4\u9694 \u91cd\u590d"),  # a space between CJK characters carries no meaning
        ("p_004", "  in 1885.  "),
    ],
)
def test_normalised_quotes_are_accepted(paragraph_id: str, quote: str) -> None:
    ok = unit(evidence=[{"paragraph_id": paragraph_id, "quote": quote}])
    assert shape(validate_raw(output([ok]), DOC)) == ()


def test_normalisation_does_not_glue_english_words() -> None:
    text = "The therapy worked."
    assert quote_in_paragraph("therapy", text)
    assert not quote_in_paragraph("the rapy", text)
    assert not quote_in_paragraph("   ", text)


@pytest.mark.parametrize("content", ["", "   \n\t", None, 42, "\x08", " \x1b\x7f "])
def test_empty_content(content: Any) -> None:
    """Control characters alone are no content: shown after sanitising, they are nothing."""
    report = validate_raw(output([unit(content)]), DOC)
    assert ("empty_content", "memory_units[0]") in codes(report)


def test_empty_quote() -> None:
    bad = unit(evidence=[{"paragraph_id": "p_002", "quote": "  "}])
    assert codes(validate_raw(output([bad]), DOC)) == {("empty_quote", "memory_units[0].evidence[0]")}


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("question", "", "empty_question"),
        ("question", None, "empty_question"),
        ("expected_answer", "  ", "empty_answer"),
        ("expected_answer", ["A"], "empty_answer"),
        ("kind", "essay", "unknown_question_kind"),
    ],
)
def test_question_fields(field: str, value: Any, code: str) -> None:
    q = {"question": "Q?", "expected_answer": "A", "memory_unit_index": 0, "kind": "cloze"}
    q[field] = value
    assert codes(validate_raw(output([unit()], [q]), DOC)) == {(code, "recall_questions[0]")}


@pytest.mark.parametrize("score", [-0.01, 1.01, math.nan, math.inf, True, False, "0.5", None, 10**400])
def test_scores_outside_zero_one(score: Any) -> None:
    report = validate_raw(output([unit(confidence=score)]), DOC)
    assert codes(report) == {("bad_score", "memory_units[0]")}
    idea = {"idea": "i", "why_it_matters": "w", "evidence": unit()["evidence"], "salience_score": score}
    report = validate_raw(output([unit()], core_ideas=[idea]), DOC)
    assert codes(report) == {("bad_score", "core_ideas[0]")}


@pytest.mark.parametrize("score", [0, 1, 0.0, 1.0, 0.5])
def test_scores_at_the_edges_are_fine(score: float) -> None:
    assert validate_raw(output([unit(confidence=score)]), DOC).ok


@pytest.mark.parametrize("memory_type", ["definition", "", None, "Claim", 3])
def test_unknown_memory_type(memory_type: Any) -> None:
    report = validate_raw(output([unit(memory_type=memory_type)]), DOC)
    assert codes(report) == {("unknown_type", "memory_units[0]")}


@pytest.mark.parametrize("memory_type", ["concept", "claim", "mechanism", "example"])
def test_known_memory_types(memory_type: str) -> None:
    assert validate_raw(output([unit(memory_type=memory_type)]), DOC).ok


@pytest.mark.parametrize("evidence", [[], None, {}, "p_002"])
def test_unit_without_evidence(evidence: Any) -> None:
    report = validate_raw(output([unit(evidence=evidence)]), DOC)
    assert codes(report) == {("no_evidence", "memory_units[0]")}


def test_duplicate_and_near_duplicate_units() -> None:
    units = [
        unit("Spaced repetition times each review just before forgetting."),
        unit("spaced  repetition times each review just before FORGETTING."),  # same after normalising
        unit("Spaced repetition times every review just before forgetting."),  # near
        unit(
            "The forgetting curve was described by Ebbinghaus.",
            evidence=[
                {"paragraph_id": "p_004", "quote": "Ebbinghaus called it the \u201cforgetting curve\u201d"}
            ],
        ),
    ]
    report = validate_raw(output(units), DOC)
    assert codes(report) == {
        ("duplicate_unit", "memory_units[1]"),
        ("near_duplicate_unit", "memory_units[2]"),
    }
    assert "memory_units[0]" in report.for_unit(1)[0].message


def test_short_units_are_not_near_duplicates() -> None:
    grown = [{"paragraph_id": "p_002", "quote": "The gaps grow."}]  # a quote that backs both
    report = validate_raw(
        output([unit("Gaps grow.", evidence=grown), unit("Gaps grew.", evidence=grown)]), DOC
    )
    assert report.ok


def test_question_pointing_at_a_missing_unit() -> None:
    questions = [
        {"question": "Q?", "expected_answer": "A", "memory_unit_index": 0, "kind": "qa"},
        {"question": "Q?", "expected_answer": "A", "memory_unit_index": 5, "kind": "qa"},
        {"question": "Q?", "expected_answer": "A", "memory_unit_index": -1, "kind": "qa"},
        {"question": "Q?", "expected_answer": "A", "memory_unit_index": True, "kind": "qa"},
        {"question": "Q?", "expected_answer": "A", "memory_unit_index": "0", "kind": "qa"},
    ]
    report = validate_raw(output([unit()], questions), DOC)
    assert codes(report) == {("unknown_unit", f"recall_questions[{i}]") for i in range(1, 5)}


def test_unit_without_a_question() -> None:
    questions = [{"question": "Q?", "expected_answer": "A", "memory_unit_index": 1, "kind": "qa"}]
    report = validate_raw(
        output(
            [unit("Spaced repetition schedules each review."), unit("Reviews come before you forget.")],
            questions,
        ),
        DOC,
    )
    assert codes(report) == {("no_question", "memory_units[0]")}
    assert report.for_unit(0)[0].code == "no_question"


@pytest.mark.parametrize(
    ("paragraph_id", "kind"),
    [("p_001", "heading"), ("p_003", "code"), ("p_006", "table"), ("p_007", "contents")],
)
def test_headings_code_tables_and_contents_are_not_evidence(paragraph_id: str, kind: str) -> None:
    quote = DOC.paragraph(paragraph_id).text.split("\n")[0]  # type: ignore[union-attr]
    bad = unit(evidence=[{"paragraph_id": paragraph_id, "quote": quote}])
    report = validate_raw(output([bad]), DOC)
    assert codes(report) == {("non_prose_evidence", "memory_units[0].evidence[0]")}
    assert kind in shape(report)[0].message


def test_every_span_is_checked_with_its_own_location() -> None:
    bad = unit(
        evidence=[
            {"paragraph_id": "p_002", "quote": "The gaps grow."},
            {"paragraph_id": "p_002", "quote": "invented"},
            "not a span",
        ]
    )
    report = validate_raw(output([bad]), DOC)
    assert codes(report) == {
        ("quote_not_found", "memory_units[0].evidence[1]"),
        ("unknown_paragraph", "memory_units[0].evidence[2]"),
    }


def test_core_ideas_are_checked_too() -> None:
    idea = {
        "idea": " ",
        "why_it_matters": "w",
        "evidence": [{"paragraph_id": "p_002", "quote": "nope"}],
        "salience_score": 0.4,
    }
    report = validate_raw(output([unit()], core_ideas=[idea]), DOC)
    assert codes(report) == {
        ("empty_idea", "core_ideas[0]"),
        ("quote_not_found", "core_ideas[0].evidence[0]"),
    }


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, {("malformed", "output")}),
        ("a string", {("malformed", "output")}),
        ([1, 2], {("malformed", "output")}),
        ({}, {("malformed", "memory_units"), ("malformed", "recall_questions")}),
        ({"memory_units": "x", "recall_questions": []}, {("malformed", "memory_units")}),
        ({"memory_units": [], "recall_questions": {}}, {("malformed", "recall_questions")}),
        (
            {"memory_units": [7], "recall_questions": []},
            {("malformed", "memory_units[0]"), ("no_question", "memory_units[0]")},
        ),
        ({"memory_units": [], "recall_questions": ["q"]}, {("malformed", "recall_questions[0]")}),
        ({"memory_units": [], "recall_questions": [], "summary": 3}, {("malformed", "summary")}),
        ({"memory_units": [], "recall_questions": [], "core_ideas": "x"}, {("malformed", "core_ideas")}),
    ],
)
def test_malformed_shapes_are_reported(raw: Any, expected: set[tuple[str, str]]) -> None:
    report = validate_raw(raw, DOC)
    assert codes(report) == expected
    assert not report.ok


def test_every_issue_has_a_code_message_and_location() -> None:
    messy = output(
        [unit("", memory_type="x", confidence=2, evidence=[{"paragraph_id": "p_1", "quote": ""}], tags="t")],
        [{"question": "", "expected_answer": "", "memory_unit_index": 3, "kind": "?"}],
    )
    report = validate_raw(messy, DOC)
    assert {i.code for i in shape(report)} == {
        "empty_content",
        "unknown_type",
        "bad_score",
        "bad_tags",
        "unknown_paragraph",
        "empty_question",
        "empty_answer",
        "unknown_question_kind",
        "unknown_unit",
        "no_question",
    }
    for issue in shape(report):
        assert issue.code and issue.message and issue.location


def test_near_duplicates_are_found_among_many_long_units() -> None:
    """Long, distinct units are not flagged; one lightly altered copy among them is."""
    rng = random.Random(7)
    vocabulary = ["".join(rng.choice("abcdefghij") for _ in range(6)) for _ in range(3000)]
    texts = [" ".join(rng.choice(vocabulary) for _ in range(300)) for _ in range(60)]
    texts.append(texts[17].replace(" ", "  ", 5)[:-3] + "xyz")
    report = validate_raw(output([unit(t) for t in texts]), DOC)
    assert codes(report) == {("near_duplicate_unit", "memory_units[60]")}
    assert "memory_units[17]" in shape(report)[0].message
