"""The offline extractor on the sample articles (English, Simplified and Traditional Chinese).

Pins what a new user sees first: grounded units of the right types, Q&A and cloze questions
whose answers come from the quotes, determinism, and structure never used as evidence.
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
from core.extraction.offline.questions import BLANK
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
    assert report.issues == ()
    assert 3 <= len(out.memory_units) <= 12
    assert out.summary.strip()
    assert 3 <= len(out.core_ideas) <= 7
    for idea in out.core_ideas:
        assert 0.0 <= idea.salience_score <= 1.0 and idea.why_it_matters.strip()
    for u in out.memory_units:
        assert 0.0 <= u.confidence <= 1.0
        assert u.tags and all(t.strip() for t in u.tags)
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
        quote = out.memory_units[q.memory_unit_index].evidence[0].quote
        assert q.expected_answer in quote
        assert normalize_for_match(q.expected_answer) not in normalize_for_match(q.question)
        if q.kind == "cloze":
            assert BLANK in q.question
            answer = q.expected_answer
            assert answer.lower() not in EN_STOP and answer not in ZH_STOP
            assert 2 <= len(answer) < 0.6 * len(quote)


def test_english_types_follow_the_cues(outputs: dict) -> None:
    _, out = outputs["spaced-repetition.md"]
    definition = unit_starting(out, "Spaced repetition is a learning technique")
    assert out.memory_units[definition].memory_type == "concept"
    example = unit_starting(out, "For example")
    assert out.memory_units[example].memory_type == "example"
    assert any(u.memory_type == "mechanism" for u in out.memory_units)
    qa = [q for q in out.recall_questions if q.memory_unit_index == definition and q.kind == "qa"]
    assert qa and qa[0].question == "What is Spaced repetition?"
    assert qa[0].expected_answer.startswith("learning technique")


def test_chinese_types_follow_the_cues(outputs: dict) -> None:
    _, out = outputs["间隔重复.md"]
    definition = unit_starting(out, "间隔重复是一种学习方法")
    assert out.memory_units[definition].memory_type == "concept"
    assert out.memory_units[unit_starting(out, "例如")].memory_type == "example"
    qa = [q for q in out.recall_questions if q.memory_unit_index == definition and q.kind == "qa"]
    assert qa and qa[0].question == "什么是间隔重复？"
    cloze = [q for q in out.recall_questions if q.kind == "cloze"]
    assert cloze and all(q.question.startswith("填空：") for q in cloze)


def test_traditional_chinese_gets_traditional_questions_and_real_words(outputs: dict) -> None:
    doc, out = outputs["光合作用.txt"]
    assert doc.language == "zh"
    definition = unit_starting(out, "光合作用是")
    assert out.memory_units[definition].memory_type == "concept"
    qa = [q for q in out.recall_questions if q.memory_unit_index == definition and q.kind == "qa"]
    assert qa and qa[0].question == "什麼是光合作用？"
    for u in out.memory_units:
        for tag in u.tags:  # no glue characters from a missed segmentation ("之後它")
            assert not tag.endswith(("它", "會", "的")) and not tag.startswith(("之", "個"))


def test_cloze_hides_a_key_term_of_the_article(outputs: dict) -> None:
    _, out = outputs["photosynthesis.txt"]
    answers = {q.expected_answer.lower() for q in out.recall_questions if q.kind == "cloze"}
    assert answers & {"photosynthesis", "energy", "chlorophyll", "nadph", "atp", "calvin", "stage"}


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
    # a smaller count keeps units of a larger one: selection is greedy, best first
    quotes = {u.evidence[0].quote for u in default.memory_units}
    assert {u.evidence[0].quote for u in two.memory_units} <= quotes
    assert OfflineExtractor(max_units=None).extract(doc).output == default


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "4"])
def test_max_units_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(ValueError, match="max_units"):
        OfflineExtractor(max_units=bad)  # type: ignore[arg-type]
