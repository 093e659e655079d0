"""The same card of yours made again is warned about (issue 34, item 13).

The attack made one own cloze 249 times (in 6,745 own units) without a word. A card you make is
checked against your units that quote the same paragraphs by the validator's repeat rule
(the one an extractor's repeats meet): a repeat is saved, yours to keep, with a warning naming the
unit it repeats, which the screen shows in its "saved" line.
"""

from __future__ import annotations

from core.domain import SelectedSpan
from core.services.bootstrap import Services

from .helpers import SAMPLES

WORD = "RuBisCO"


def _article(services: Services) -> tuple[int, SelectedSpan]:
    (outcome,) = services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="offline")
    assert outcome.article_id is not None
    para = next(p for p in services.library.paragraphs(outcome.article_id) if WORD in p.text)
    at = para.text.index(WORD)
    return outcome.article_id, SelectedSpan(para.paragraph_id, at, at + len(WORD), WORD)


def test_the_same_cloze_made_again_is_saved_with_a_warning_naming_the_first(services: Services) -> None:
    article_id, span = _article(services)
    first = services.authoring.cloze(article_id, [span])
    assert first.repeats == ""
    again = services.authoring.cloze(article_id, [span])
    assert again.repeats == f"repeats unit {first.unit_id}"
    stored = services.library.unit(again.unit_id)
    assert stored is not None and stored.status == "confirmed"  # saved: yours to keep
    (issue,) = [i for i in stored.issues if i.code == "duplicate_unit"]
    assert issue.severity == "warning" and issue.message == f"repeats unit {first.unit_id}"


def test_a_near_repeat_of_your_unit_is_named_too(services: Services) -> None:
    article_id, span = _article(services)
    first = services.authoring.cloze(article_id, [span])
    unit = services.library.unit(first.unit_id)
    assert unit is not None
    para = services.library.paragraph(article_id, span.paragraph_id)
    assert para is not None
    quote = unit.evidence[0].quote
    at = para.text.index(quote)
    near = services.authoring.make(
        article_id,
        [SelectedSpan(span.paragraph_id, at, at + len(quote), quote)],
        content=unit.content.replace("the air", "the atmosphere"),
        memory_type=unit.memory_type,
        tags=(),
        questions=((q.question, q.expected_answer, q.kind) for q in unit.questions),  # type: ignore[arg-type]
    )
    assert near.repeats == f"nearly repeats unit {first.unit_id}"


def test_a_card_of_another_sentence_is_no_repeat(services: Services) -> None:
    article_id, span = _article(services)
    services.authoring.cloze(article_id, [span])
    para = services.library.paragraph(article_id, span.paragraph_id)
    assert para is not None
    word = "NADPH"
    at = para.text.index(word)
    other = services.authoring.cloze(article_id, [SelectedSpan(span.paragraph_id, at, at + len(word), word)])
    assert other.repeats == ""
