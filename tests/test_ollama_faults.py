"""Every Ollama fault falls back to the offline extractor with a visible notice; nothing raises.

The real ollama client talks to a loopback server scripted to misbehave (or to a closed port).
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ollama_replies import grounded_output, reply_json
from ollama_server import OllamaTestServer, Reply, closed_port_url

from core.domain import ExtractionResult, SourceDocument
from core.extraction.ollama import OllamaExtractor
from core.ingest import read_document
from core.validation import validate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"
MODEL = "qwen2.5:7b-instruct"


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as s:
        yield s


@pytest.fixture(params=["spaced-repetition.md", "光合作用.txt"])
def doc(request: pytest.FixtureRequest) -> SourceDocument:
    return read_document(SAMPLES / request.param)


def assert_fell_back(result: ExtractionResult, document: SourceDocument, *phrases: str) -> str:
    """Offline output, grounded, and one notice naming the failure and the fallback."""
    assert result.extractor != "ollama"
    assert result.model is None and result.prompt_version is None
    assert validate(result.output, document).ok
    assert result.output.memory_units, "the offline extractor still produced units"
    (notice,) = [n for n in result.notices if "used the offline extractor" in n]
    assert notice.startswith(f"Ollama ({MODEL} at ")
    for phrase in phrases:
        assert phrase in notice
    return notice


def _good(doc: SourceDocument) -> str:
    return json.dumps(grounded_output(doc))


def _invented(doc: SourceDocument, *, ids: bool) -> str:
    data = grounded_output(doc)
    for unit in data["memory_units"]:
        for span in unit["evidence"]:
            if ids:
                span["paragraph_id"] = "p_999"
            else:
                span["quote"] = "The moon is made of green cheese."
    return json.dumps(data)


# name -> (replies built from the document, phrase the notice must contain)
REPLY_FAULTS = {
    "http_500": (
        lambda d: [Reply(status=500, body={"error": "llama runner process has terminated"})],
        "HTTP 500",
    ),
    "model_not_found": (
        lambda d: [Reply(status=404, body={"error": f"model '{MODEL}' not found"})],
        f"run `ollama pull {MODEL}`",
    ),
    "invalid_json": (lambda d: [Reply(content="Here are your memory units: none.")], "not valid JSON"),
    "truncated_json": (lambda d: [Reply(content=_good(d)[:200], done_reason="length")], "not valid JSON"),
    "fenced_json": (lambda d: [Reply(content=f"```json\n{_good(d)}\n```")], "code fence"),
    "schema_mismatch": (lambda d: [Reply(content='{"units": [{"text": "x"}]}')], "does not match the schema"),
    "not_an_object": (lambda d: [Reply(content="[1, 2, 3]")], "not an object"),
    "invented_ids": (lambda d: [Reply(content=_invented(d, ids=True))] * 2, "no grounded memory unit"),
    "invented_quotes": (lambda d: [Reply(content=_invented(d, ids=False))] * 2, "no grounded memory unit"),
    "empty_reply": (lambda d: [Reply(content="")], "the reply was empty"),
    "error_mid_stream": (lambda d: [Reply(content=_good(d), stream_error="out of memory")], "out of memory"),
}


def extract_after(fault: str, server: OllamaTestServer, doc: SourceDocument) -> ExtractionResult:
    """What the extractor makes of `doc` when the server gives `fault`'s scripted replies."""
    build, _ = REPLY_FAULTS[fault]
    server.chat(*build(doc))
    return OllamaExtractor(host=server.url, timeout=10).extract(doc)


@pytest.mark.parametrize("fault", sorted(REPLY_FAULTS))
def test_reply_fault_falls_back_with_notice(
    fault: str, server: OllamaTestServer, doc: SourceDocument
) -> None:
    build, phrase = REPLY_FAULTS[fault]
    result = extract_after(fault, server, doc)
    assert_fell_back(result, doc, phrase)
    assert server.pending() == 0, "every scripted reply was asked for"
    if fault in {"invalid_json", "fenced_json", "empty_reply", "truncated_json"}:
        assert result.raw_output == build(doc)[0].content  # the raw reply is kept for the record


@pytest.mark.parametrize("fault", ["invented_ids", "invented_quotes"])
def test_ungrounded_reply_records_what_was_dropped(
    fault: str, server: OllamaTestServer, doc: SourceDocument
) -> None:
    result = extract_after(fault, server, doc)
    code = "unknown_paragraph" if fault == "invented_ids" else "quote_not_found"
    units = [d for d in result.dropped if d["kind"] == "memory_unit"]
    assert units and all(code in d["reasons"] for d in units)
    assert len(server.requests_to("/api/chat")) == 2  # one repair round, then give up


def test_connection_refused_falls_back(doc: SourceDocument) -> None:
    result = OllamaExtractor(host=closed_port_url(), timeout=5).extract(doc)
    assert_fell_back(result, doc, "cannot reach Ollama", "ollama serve")


def test_slow_reply_trips_the_timeout(server: OllamaTestServer, doc: SourceDocument) -> None:
    server.chat(Reply(content=_good(doc), delay=1.5))
    result = OllamaExtractor(host=server.url, timeout=0.3).extract(doc)
    assert_fell_back(result, doc, "within the timeout", "ollama_timeout_s")


def test_timeout_in_the_repair_round_falls_back(server: OllamaTestServer, doc: SourceDocument) -> None:
    server.chat(Reply(content=_invented(doc, ids=False)), Reply(content=_good(doc), delay=1.5))
    result = OllamaExtractor(host=server.url, timeout=0.3).extract(doc)
    assert_fell_back(result, doc, "within the timeout")
    assert "green cheese" in result.raw_output


def test_remote_host_is_refused_without_the_setting(doc: SourceDocument) -> None:
    # TEST-NET-1: nothing is contacted; the refusal happens before any connection
    result = OllamaExtractor(host="http://192.0.2.10:11434", timeout=5).extract(doc)
    notice = assert_fell_back(result, doc, "http://192.0.2.10:11434", "ollama_allow_remote = true")
    assert "not on this machine" in notice


def _lan_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # UDP connect sends nothing; it picks the outgoing address
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else addr


def test_allowed_remote_host_is_used_and_named(doc: SourceDocument) -> None:
    addr = _lan_address()
    if addr is None:
        pytest.skip("this machine has no non-loopback address")
    with OllamaTestServer(bind=addr) as remote:
        remote.chat(reply_json(grounded_output(doc)))
        result = OllamaExtractor(host=remote.url, timeout=10, allow_remote=True).extract(doc)
    assert result.extractor == "ollama"
    assert any(remote.url in n and "not on this machine" in n for n in result.notices)


def test_loopback_ignores_proxy_settings(
    server: OllamaTestServer, doc: SourceDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead_proxy = closed_port_url()
    for var in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(var, dead_proxy)
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(var, raising=False)
    server.chat(reply_json(grounded_output(doc)))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert result.extractor == "ollama", result.notices


def test_host_comes_from_ollama_host_env(
    server: OllamaTestServer, doc: SourceDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", server.url.removeprefix("http://"))
    server.chat(reply_json(grounded_output(doc)))
    ex = OllamaExtractor(host=None, timeout=10)
    assert ex.host == server.url
    assert ex.extract(doc).extractor == "ollama"


@pytest.mark.timeout(60)
def test_a_server_that_keeps_dripping_meets_the_overall_deadline(
    server: OllamaTestServer, doc: SourceDocument
) -> None:
    """One chunk every 0.2 s never trips a 0.5 s read timeout; the overall deadline ends it."""
    server.chat(Reply(content=_good(doc), chunk_size=2, drip=0.2, repeat=1000))
    started = time.monotonic()
    result = OllamaExtractor(host=server.url, timeout=0.5, deadline=1.5).extract(doc)
    elapsed = time.monotonic() - started
    assert_fell_back(result, doc, "within 1.5 s", "kept sending", "ollama_deadline_s")
    assert elapsed < 1.5 + 0.5 + 3.0, f"took {elapsed:.1f} s"  # deadline + one read + slack


@pytest.mark.timeout(60)
def test_the_deadline_is_five_timeouts_unless_set(server: OllamaTestServer, doc: SourceDocument) -> None:
    server.chat(Reply(content=_good(doc), chunk_size=2, drip=0.1, repeat=1000))
    extractor = OllamaExtractor(host=server.url, timeout=0.4)
    assert extractor.deadline == 2.0
    started = time.monotonic()
    assert_fell_back(extractor.extract(doc), doc, "within 2 s")
    assert time.monotonic() - started < 2.0 + 0.4 + 3.0


@pytest.mark.timeout(60)
def test_a_reply_without_end_is_not_read_past_the_cap(server: OllamaTestServer, doc: SourceDocument) -> None:
    """3,000 chunks of 64 KB (192 MB) were read and kept whole; now reading stops at
    REPLY_CHARS_PER_TOKEN per allowed token and the window falls back to offline."""
    from core.extraction.ollama.extractor import REPLY_CHARS_PER_TOKEN

    server.chat(Reply(content="x" * 65536, chunk_size=65536, repeat=3000))
    result = OllamaExtractor(host=server.url, timeout=10, reply_tokens=1024).extract(doc)
    cap = REPLY_CHARS_PER_TOKEN * 1024
    assert_fell_back(result, doc, f"passed {cap:,} characters", "not read further")
    assert len(result.raw_output) == cap


def test_stored_raw_output_is_cut_with_a_marker_and_a_notice(
    server: OllamaTestServer, doc: SourceDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.extraction.ollama.extractor as extractor_module

    monkeypatch.setattr(extractor_module, "STORED_RAW_CHARS", 1000)
    server.chat(Reply(content="not json " * 500))
    result = OllamaExtractor(host=server.url, timeout=10).extract(doc)
    assert_fell_back(result, doc, "not valid JSON")
    assert result.raw_output.startswith("not json ")
    assert result.raw_output.endswith("[… 3,500 more characters of model output not stored]")
    assert len(result.raw_output) < 1100
    assert any("4,500 characters; the first 1,000 are kept" in n for n in result.notices)
