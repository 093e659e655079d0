"""The Ollama extractor against a loopback server speaking Ollama's API, with the real client.

Happy path, what is sent (schema, temperature, seed, num_ctx, window ids), repair, dropping,
windows for long articles. Faults are in test_ollama_faults.py.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ollama_replies import first_sentence, grounded_output, prose_ids, reply_json, rivers_text
from ollama_server import OllamaTestServer, Reply

from core import domain
from core.domain import EVIDENCE_FIELDS, ArticleMemoryOutput, SourceDocument
from core.extraction.base import make_extractor
from core.extraction.ollama import DEFAULT_MODEL, OllamaExtractor
from core.extraction.ollama.prompt import PROMPT_VERSION, estimate_tokens
from core.extraction.ollama.schema import output_schema
from core.ingest import parse_text, read_document
from core.validation import validate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as s:
        yield s


@pytest.fixture
def doc() -> SourceDocument:
    return read_document(SAMPLES / "spaced-repetition.md")


def window_ids(body: dict[str, Any]) -> list[str]:
    """The paragraph ids a chat request sent (from the user message)."""
    return re.findall(r"^\[(p_\d+)\]", body["messages"][1]["content"], re.M)


def assert_grounded(output: ArticleMemoryOutput, document: SourceDocument) -> None:
    report = validate(output, document)
    assert report.ok, report.issues
    assert output.memory_units


def test_happy_path_gives_grounded_units_with_provenance(
    server: OllamaTestServer, doc: SourceDocument
) -> None:
    reply = grounded_output(doc)
    server.chat(reply_json(reply))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama"
    assert result.model == DEFAULT_MODEL == "qwen2.5:7b-instruct"
    assert result.prompt_version == PROMPT_VERSION
    assert json.loads(result.raw_output) == reply
    assert result.notices == () and result.dropped == ()
    assert [u.content for u in result.output.memory_units] == [u["content"] for u in reply["memory_units"]]
    assert_grounded(result.output, doc)
    assert len(server.requests_to("/api/chat")) == 1  # valid first time: no repair round


def test_request_carries_schema_temperature_seed_and_context(
    server: OllamaTestServer, doc: SourceDocument
) -> None:
    server.chat(reply_json(grounded_output(doc)))
    OllamaExtractor(host=server.url, model="my-model:3b", timeout=10).extract(doc)
    (req,) = server.requests_to("/api/chat")
    body = req.body
    assert body["model"] == "my-model:3b"
    opts = body["options"]
    assert opts["temperature"] == 0 and isinstance(opts["seed"], int)
    prompt_tokens = sum(estimate_tokens(m["content"]) for m in body["messages"])
    assert prompt_tokens < opts["num_ctx"] <= 32768
    assert opts["num_ctx"] >= prompt_tokens + opts["num_predict"]
    ids = window_ids(body)
    sent_prose = [
        i for i in ids if doc.paragraph(i) and doc.paragraph(i).kind not in {"heading", "code", "table"}
    ]  # type: ignore[union-attr]
    assert body["format"] == output_schema(sent_prose)
    assert (
        body["format"]["properties"]["memory_units"]["items"]["properties"]["evidence"]["items"][
            "properties"
        ]["paragraph_id"]["enum"]
        == sent_prose
    )
    # whole paragraphs, verbatim, and the system prompt names the rules
    for pid in ids:
        assert doc.paragraph(pid).text in body["messages"][1]["content"]  # type: ignore[union-attr]
    system = body["messages"][0]
    assert (
        system["role"] == "system"
        and "exactly" in system["content"]
        and '"memory_unit_index"' in system["content"]
    )
    assert doc.title in body["messages"][1]["content"]
    assert not any("{{" in m["content"] for m in body["messages"])  # every placeholder filled


def test_schema_names_exactly_the_contract_fields() -> None:
    schema = output_schema(["p_001"])
    props = schema["properties"]
    names = lambda cls: [f.name for f in dataclasses.fields(cls)]  # noqa: E731
    assert list(props) == names(ArticleMemoryOutput) == schema["required"]
    assert list(props["core_ideas"]["items"]["properties"]) == names(domain.CoreIdea)
    assert list(props["memory_units"]["items"]["properties"]) == names(domain.MemoryUnit)
    assert list(props["recall_questions"]["items"]["properties"]) == names(domain.RecallQuestion)
    # a model writes where it quotes from; where that paragraph sits (its locator) is the library's
    evidence = list(props["memory_units"]["items"]["properties"]["evidence"]["items"]["properties"])
    assert evidence == list(EVIDENCE_FIELDS) == [f for f in names(domain.EvidenceSpan) if f != "locator"]


def test_registry_builds_it_with_bootstrap_keywords(server: OllamaTestServer) -> None:
    ex = make_extractor(
        "ollama", host=server.url, model="m", timeout=3.0, allow_remote=False, unknown="ignored"
    )
    assert isinstance(ex, OllamaExtractor) and ex.host == server.url and ex.timeout == 3.0


def _with_bad_quote(good: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(good)
    bad["memory_units"][0]["evidence"][0]["quote"] = "Spaced repetition was invented on the moon in 1999."
    return bad


def test_repaired_reply_is_accepted(server: OllamaTestServer, doc: SourceDocument) -> None:
    good = grounded_output(doc, limit=3)
    server.chat(reply_json(_with_bad_quote(good)), reply_json(good))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama"
    assert len(result.output.memory_units) == 3 and result.dropped == ()
    assert_grounded(result.output, doc)
    first, repair = server.requests_to("/api/chat")
    messages = repair.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == json.dumps(_with_bad_quote(good))
    assert (
        "memory_units[0].evidence[0]" in messages[3]["content"]
        and "quote_not_found" in messages[3]["content"]
    )
    assert (
        repair.body["format"] == first.body["format"]
        and repair.body["options"]["seed"] == first.body["options"]["seed"]
    )
    assert "repair" in result.raw_output and "on the moon" in result.raw_output  # both replies kept


def test_still_broken_unit_is_dropped_and_recorded(server: OllamaTestServer, doc: SourceDocument) -> None:
    good = grounded_output(doc, limit=3)
    bad = _with_bad_quote(good)
    bad["memory_units"][1]["evidence"][0]["paragraph_id"] = "p_999"  # invented id
    bad["recall_questions"].append(
        {"question": "Orphan?", "expected_answer": "x", "memory_unit_index": 7, "kind": "qa"}
    )
    server.chat(reply_json(bad), reply_json(bad))  # the repair changes nothing
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama"
    kept = result.output.memory_units
    assert [u.content for u in kept] == [good["memory_units"][2]["content"]]
    # the surviving unit's question was re-pointed from index 2 to 0
    assert [(q.memory_unit_index, q.question) for q in result.output.recall_questions] == [
        (0, good["recall_questions"][2]["question"])
    ]
    reasons = {(d["kind"], tuple(d["reasons"])) for d in result.dropped}
    assert ("memory_unit", ("quote_not_found",)) in reasons
    assert ("memory_unit", ("unknown_paragraph",)) in reasons
    assert ("recall_question", ("unknown_unit",)) in reasons
    assert all(d["text"] for d in result.dropped)
    assert_grounded(result.output, doc)


def test_card_rules_go_to_the_repair_round_and_what_still_breaks_them_is_dropped(
    server: OllamaTestServer, doc: SourceDocument
) -> None:
    """A template question with the whole sentence as its answer breaks error rules: the
    repair round lists them by code (with the card warnings as advice), and when the repair
    keeps them the question is dropped and recorded; its unit keeps its good cloze."""
    good = grounded_output(doc, limit=3)
    bad = copy.deepcopy(good)
    quote = bad["memory_units"][0]["evidence"][0]["quote"]
    bad["recall_questions"].append(
        {
            "question": "What does the text say about it?",
            "expected_answer": quote,
            "memory_unit_index": 0,
            "kind": "qa",
        }
    )
    bad["memory_units"][1]["memory_type"] = "mechanism"  # no cause in the sentence: a warning only
    server.chat(reply_json(bad), reply_json(bad))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama"
    _, repair = server.requests_to("/api/chat")
    asked = repair.body["messages"][3]["content"]
    assert "[template_question]" in asked and "[answer_is_sentence]" in asked
    assert "warnings" in asked and "[type_without_cue]" in asked
    assert len(result.output.memory_units) == 3
    assert [q.question for q in result.output.recall_questions] == [
        q["question"] for q in good["recall_questions"]
    ]
    reasons = {(d["kind"], tuple(d["reasons"])) for d in result.dropped}
    assert ("recall_question", ("answer_is_sentence", "answer_too_long", "template_question")) in reasons
    report = validate(result.output, doc)
    assert report.ok and "type_without_cue" in {i.code for i in report.issues}  # kept, shown in Triage


def test_unparseable_repair_keeps_the_first_reply_minus_bad_units(
    server: OllamaTestServer, doc: SourceDocument
) -> None:
    good = grounded_output(doc, limit=3)
    server.chat(reply_json(_with_bad_quote(good)), Reply(content="sorry, I cannot"))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama" and len(result.output.memory_units) == 2
    assert any("repair reply" in n for n in result.notices)
    assert_grounded(result.output, doc)


def _long_article(n: int = 40) -> SourceDocument:
    return parse_text(rivers_text(n), "/tmp/rivers.md", suffix=".md")


def test_long_article_goes_in_windows_of_whole_paragraphs(server: OllamaTestServer) -> None:
    doc = _long_article()
    all_prose = prose_ids(doc)

    def respond(body: dict[str, Any]) -> Reply:
        ids = window_ids(body)
        reply = grounded_output(doc, ids, limit=100)
        # a unit every window repeats (merged away), and one citing a paragraph from another window
        shared = dict(reply["memory_units"][0], content="Rivers carry sediment downstream.")
        other = next(i for i in all_prose if i not in ids)
        quote = first_sentence(doc.paragraph(other).text)  # type: ignore[union-attr]
        stray = dict(shared, content=f"Stray {other}", evidence=[{"paragraph_id": other, "quote": quote}])
        reply["memory_units"] += [shared, stray]
        n = len(reply["memory_units"])
        reply["recall_questions"] += [
            {"question": "Shared?", "expected_answer": "yes", "memory_unit_index": n - 2, "kind": "qa"},
            {"question": "Stray?", "expected_answer": "no", "memory_unit_index": n - 1, "kind": "qa"},
        ]
        return reply_json(reply)

    server.respond_with("/api/chat", respond)
    result = OllamaExtractor(host=server.url, timeout=10, context_tokens=1500, reply_tokens=400).extract(doc)
    first_requests = [r.body for r in server.requests_to("/api/chat") if len(r.body["messages"]) == 2]
    assert len(first_requests) >= 3
    seen: list[str] = []
    for body in first_requests:
        ids = window_ids(body)
        assert body["options"]["num_ctx"] <= 1536
        enum = body["format"]["properties"]["memory_units"]["items"]["properties"]["evidence"]["items"]
        assert enum["properties"]["paragraph_id"]["enum"] == [i for i in ids if i in all_prose]
        for pid in ids:  # whole paragraphs only
            assert doc.paragraph(pid).text in body["messages"][1]["content"]  # type: ignore[union-attr]
        seen += ids
    assert [i for i in seen if i in all_prose] == all_prose  # every paragraph once, in order
    contents = [u.content for u in result.output.memory_units]
    assert contents.count("Rivers carry sediment downstream.") == 1
    assert not any(c.startswith("Stray") for c in contents)  # ids from other windows are refused
    assert len(contents) == len(all_prose) + 1
    assert any("duplicate_unit" in d["reasons"] for d in result.dropped)
    assert any("unknown_paragraph" in d["reasons"] and d.get("window") for d in result.dropped)
    assert result.extractor == "ollama" and "### window 1/" in result.raw_output
    assert_grounded(result.output, doc)


def test_one_bad_window_is_filled_by_the_offline_extractor(server: OllamaTestServer) -> None:
    doc = _long_article()
    calls: list[int] = []

    def respond(body: dict[str, Any]) -> Reply:
        calls.append(1)
        if len(calls) == 1:
            return Reply(content="{not json")
        return reply_json(grounded_output(doc, window_ids(body), limit=100))

    server.respond_with("/api/chat", respond)
    result = OllamaExtractor(host=server.url, timeout=10, context_tokens=1500, reply_tokens=400).extract(doc)
    assert len(calls) >= 3 and result.extractor == "ollama"
    (notice,) = result.notices
    assert (
        notice.startswith("Ollama window 1/") and "not valid JSON" in notice and "offline extractor" in notice
    )
    first_window = set(window_ids(server.requests_to("/api/chat")[0].body))
    cited = {e.paragraph_id for u in result.output.memory_units for e in u.evidence}
    assert cited & first_window  # the failed window's paragraphs are still covered (offline)
    assert_grounded(result.output, doc)


def test_control_characters_from_the_model_are_removed(server: OllamaTestServer, doc: SourceDocument) -> None:
    reply = grounded_output(doc, limit=2)
    reply["memory_units"][0]["content"] = (  # backed by its quote: a sentence it does not back is dropped
        "\x1b\x07\x9b Spaced repetition [@click=app.quit] spreads reviews of the same material out "
        "over increasing intervals of time."
    )
    reply["recall_questions"][0].update(question="Why\x1b[5m?", kind="qa")
    server.chat(reply_json(reply))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    unit = result.output.memory_units[0]
    assert "\x1b" not in unit.content and "\x07" not in unit.content
    assert "[@click=app.quit]" in unit.content  # kept as data; the TUI shows it with markup off
    assert "\x1b" not in result.output.recall_questions[0].question
