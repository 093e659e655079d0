"""The offline extractor on the sample articles (English, Simplified and Traditional Chinese).

Pins what a new user sees first: grounded units of the right types, cloze cards on whole
words, Q&A questions only where the sentence gives one (never a template about "the text"),
determinism, and structure never used as evidence.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from core.domain import NON_EVIDENCE_KINDS, ArticleMemoryOutput, SourceDocument
from core.extraction.base import make_extractor
from core.extraction.offline import OfflineExtractor, cues
from core.extraction.offline.blank_model import BLANK
from core.extraction.offline.segment import EN_STOP, ZH_STOP
from core.ingest import read_document
from core.text import normalize_for_match
from core.validation import validate
from sample_articles import sample_paths

SAMPLES = {p.name: p for p in sample_paths()}
ROOT = Path(__file__).resolve().parent.parent


def extract(doc: SourceDocument) -> ArticleMemoryOutput:
    return OfflineExtractor().extract(doc).output


@pytest.fixture(scope="module")
def outputs() -> dict[str, tuple[SourceDocument, ArticleMemoryOutput]]:
    result = {}
    for name, path in SAMPLES.items():
        doc = read_document(path)
        result[name] = (doc, extract(doc))
    return result


def unit_starting(output: ArticleMemoryOutput, prefix: str) -> int:
    for i, u in enumerate(output.memory_units):
        if u.evidence[0].quote.startswith(prefix):
            return i
    raise AssertionError(f"no unit quotes a sentence starting {prefix!r}")


def test_the_registry_builds_the_offline_extractor() -> None:
    ex = make_extractor("offline")
    assert isinstance(ex, OfflineExtractor)
    assert ex.name == "offline" and ex.version


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_output_passes_the_validator_with_no_issue(name: str, outputs: dict) -> None:
    doc, out = outputs[name]
    report = validate(out, doc)
    assert report.ok
    # the only warning a sample may keep: a unit whose sentence names one topic (one tag)
    assert {i.code for i in report.issues} <= {"tag_count"}
    assert 3 <= len(out.memory_units) <= 12
    assert out.summary.strip()
    assert 3 <= len(out.core_ideas) <= 7
    for idea in out.core_ideas:
        assert 0.0 <= idea.salience_score <= 1.0 and idea.why_it_matters.strip()
    for u in out.memory_units:
        assert 0.0 <= u.confidence <= 1.0
        assert 1 <= len(u.tags) <= 5 and all(t.strip() for t in u.tags)
        assert "**" not in u.content and not u.content.startswith("- ")  # markup stays in the quote


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_quote_is_an_exact_substring_of_a_prose_paragraph(name: str, outputs: dict) -> None:
    doc, out = outputs[name]
    for u in out.memory_units:
        for span in u.evidence:
            para = doc.paragraph(span.paragraph_id)
            assert para is not None and para.kind not in NON_EVIDENCE_KINDS
            assert span.quote in para.text
            assert not span.quote.lstrip().startswith(("#", "```", "|", "---"))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_questions_are_answerable_from_the_quote_and_never_give_the_answer(name: str, outputs: dict) -> None:
    _, out = outputs[name]
    kinds = {q.kind for q in out.recall_questions}
    assert kinds == {"qa", "cloze"}
    asked = {q.memory_unit_index for q in out.recall_questions}
    assert asked == set(range(len(out.memory_units)))
    for q in out.recall_questions:
        content = out.memory_units[q.memory_unit_index].content
        assert q.expected_answer in content
        assert normalize_for_match(q.expected_answer) not in normalize_for_match(q.question)
        assert "the text" not in q.question and "文中" not in q.question
        assert len(q.expected_answer.split()) <= 15 and len(q.expected_answer) <= 0.6 * len(content)
        if q.kind == "cloze":  # the content with one blank over whole words
            assert q.question.count(BLANK) == 1
            assert q.question.replace(BLANK, q.expected_answer) == content
            answer = q.expected_answer
            assert answer.lower() not in EN_STOP and answer not in ZH_STOP
        else:
            assert q.question.endswith(("?", "？"))


def test_english_types_follow_the_cues(outputs: dict) -> None:
    _, out = outputs["spaced-repetition.md"]
    definition = unit_starting(out, "Spaced repetition is a learning technique")
    assert out.memory_units[definition].memory_type == "concept"
    # the definition is 16 words: too long for an answer, so the card is its cloze
    (cloze,) = [q for q in out.recall_questions if q.memory_unit_index == definition]
    assert cloze.kind == "cloze" and cloze.expected_answer in {"learning technique", "one long session"}
    examples = [u for u in out.memory_units if u.content.startswith("For example")]
    assert all(u.memory_type == "example" for u in examples)
    assert (
        cues.memory_type("For example, a student who reviews vocabulary after one day will remember more.")
        == "example"
    )
    cause = unit_starting(out, "Retrieval practice strengthens memory")
    assert out.memory_units[cause].memory_type == "mechanism"
    why = [q for q in out.recall_questions if q.memory_unit_index == cause and q.kind == "qa"]
    assert why[0].question == "Why does retrieval practice strengthen memory more than rereading does?"
    assert why[0].expected_answer == "recalling an answer forces the brain to reconstruct it"
    when = [q for q in out.recall_questions if q.question.startswith("When ")]
    assert when[0].question == "When did Hermann Ebbinghaus measure his own memory of nonsense syllables?"
    assert when[0].expected_answer == "1885"


def test_chinese_types_follow_the_cues(outputs: dict) -> None:
    _, out = outputs["间隔重复.md"]
    definition = unit_starting(out, "间隔重复是一种学习方法")
    assert out.memory_units[definition].memory_type == "concept"
    assert out.memory_units[unit_starting(out, "例如")].memory_type == "example"
    qa = [q for q in out.recall_questions if q.memory_unit_index == definition and q.kind == "qa"]
    assert qa and qa[0].question == "什么是间隔重复？" and qa[0].expected_answer == "学习方法"
    cause = unit_starting(out, "主动回忆比重复阅读")
    why = [q for q in out.recall_questions if q.memory_unit_index == cause and q.kind == "qa"]
    assert why[0].question == "为什么主动回忆比重复阅读更能巩固记忆？"
    cloze = [q for q in out.recall_questions if q.kind == "cloze"]
    assert cloze and all(q.question.count(BLANK) == 1 and "填空" not in q.question for q in cloze)


def test_traditional_chinese_gets_traditional_questions_and_real_words(outputs: dict) -> None:
    doc, out = outputs["光合作用.txt"]
    assert doc.language == "zh"
    definition = unit_starting(out, "光合作用是")
    assert out.memory_units[definition].memory_type == "concept"
    questions = {q.question: q.expected_answer for q in out.recall_questions if q.kind == "qa"}
    assert questions["光合作用分為幾個階段？"] == "兩個"  # a number asked in place, Traditional wording
    assert questions["第二個階段稱為什麼？"] == "卡爾文循環"
    for u in out.memory_units:
        for tag in u.tags:  # no glue characters from a missed segmentation ("之後它")
            assert not tag.endswith(("它", "會", "的")) and not tag.startswith(("之", "個"))


def test_cloze_hides_a_key_phrase_but_never_the_articles_topic(outputs: dict) -> None:
    _, out = outputs["photosynthesis.txt"]
    answers = {q.expected_answer.lower() for q in out.recall_questions if q.kind == "cloze"}
    assert answers & {
        "chemical energy",
        "enzyme rubisco",
        "rubisco",
        "light-independent stage",
        "midday",
        "nadph",
    }
    assert not answers & {"photosynthesis", "light", "energy"}  # the deck is about them


def test_output_is_deterministic_across_runs_and_hash_seeds() -> None:
    path = SAMPLES["spaced-repetition.md"]
    doc = read_document(path)
    assert extract(doc) == extract(doc)
    script = (
        "import json,sys;from dataclasses import asdict;from core.ingest import read_document;"
        "from core.extraction.offline import OfflineExtractor as X;"
        "from sample_articles import sample_paths as s;"
        "print(json.dumps([asdict(X().extract(read_document(p)).output) for p in s()],sort_keys=True))"
    )
    runs = []
    for seed in ("1", "2"):
        env = {"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        runs.append(done.stdout)
    assert runs[0] == runs[1]
    here = [asdict(extract(read_document(p))) for p in sample_paths()]
    assert json.loads(runs[0]) == json.loads(json.dumps(here, sort_keys=True))


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Photosynthesis is the process by which plants store light energy.", "concept"),
        ("A mnemonic refers to any device that aids memory.", "concept"),
        ("This pattern is called the forgetting curve.", "concept"),
        ("Because each review makes memory stable, the curve flattens.", "mechanism"),
        ("Heat causes the metal to expand.", "mechanism"),
        ("For example, a student reviews words after one day.", "example"),
        ("Fruits such as apples and pears keep well in a cold cellar.", "example"),
        ("However, spacing cannot rescue material that was never understood.", "claim"),
        ("间隔重复是一种学习方法。", "concept"),
        ("遗忘曲线指记忆随时间衰退的规律。", "concept"),
        ("因为复习让记忆更稳定，所以遗忘曲线变平缓。", "mechanism"),
        ("例如，一个学生在第一天复习单词。", "example"),
        ("比如蘋果和梨都適合冷藏。", "example"),
        ("但是天黑之後它很快就會停止。", "claim"),
    ],
)
def test_types_from_cues_in_both_languages(sentence: str, kind: str) -> None:
    assert cues.memory_type(sentence) == kind


@pytest.mark.parametrize(
    "sentence",
    [
        "但是天黑之後它很快就會停止。",
        "煤炭等化石燃料正是數百萬年前的生物遺骸。",
        "它是一种方法。",
        "It is a method.",
    ],
)
def test_no_definition_question_for_a_connective_pronoun_or_adverb(sentence: str) -> None:
    assert cues.definition(sentence) is None


def test_why_it_matters_names_the_role_and_the_linked_terms(outputs: dict) -> None:
    _, en = outputs["spaced-repetition.md"]
    assert any(i.why_it_matters.startswith("Defines ") for i in en.core_ideas)
    _, hant = outputs["光合作用.txt"]
    assert any(i.why_it_matters.startswith("給出「光合作用」") for i in hant.core_ideas)
    _, hans = outputs["间隔重复.md"]
    assert all("「" in i.why_it_matters for i in hans.core_ideas)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_max_units_sets_the_unit_count_and_keeps_the_best_first(name: str, outputs: dict) -> None:
    doc, default = outputs[name]
    two = OfflineExtractor(max_units=2).extract(doc).output
    many = make_extractor("offline", max_units=40).extract(doc).output
    assert len(two.memory_units) == 2
    # the sentences there are, not 40 and not the length rule's count
    assert len(default.memory_units) < len(many.memory_units) < 40
    assert validate(many, doc).ok and validate(two, doc).ok
    # a smaller count keeps units of a larger one: selection is greedy, best first (a unit of
    # the larger count may also quote the sentence before it)
    quotes = [u.evidence[-1].quote for u in default.memory_units]
    assert all(any(u.evidence[-1].quote in q for q in quotes) for u in two.memory_units)
    assert OfflineExtractor(max_units=None).extract(doc).output == default


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "4"])
def test_max_units_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(ValueError, match="max_units"):
        OfflineExtractor(max_units=bad)  # type: ignore[arg-type]
