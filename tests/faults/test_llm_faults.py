"""LLM faults through `memoryrush import --extractor ollama` into the library.

The real ollama client talks to the loopback test server (tests/ollama_server.py). Every fault
must end the same way: the import succeeds with a notice saying what happened, the offline
extractor covers what the model could not, and no unit without real evidence is stored.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ollama_replies import grounded_output, reply_json
from ollama_server import OllamaTestServer, Reply, closed_port_url

from core.ingest import read_document

from .helpers import (
    CONTROL_RE,
    ESCAPES,
    MARKUP,
    SAMPLES,
    cli_argv,
    integrity,
    mr,
    mr_env,
    query,
    run_mr_bytes,
    write,
)
from .tmux import Tmux

ARTICLE = SAMPLES / "spaced-repetition.md"


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as s:
        yield s


def _config(home: Path, host: str, timeout: float = 10, model: str = "qwen2.5:7b-instruct") -> None:
    write(
        home / "config.toml",
        f'[extraction]\nollama_host = "{host}"\nollama_timeout_s = {timeout}\nollama_model = "{model}"\n',
    )


def _ids(body: dict[str, Any]) -> list[str]:
    return re.findall(r"^\[(p_\d+)\]", body["messages"][1]["content"], re.M)


def _grounded(body: dict[str, Any]) -> dict[str, Any]:
    return grounded_output(read_document(ARTICLE), _ids(body))


def _squash(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.translate(str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}))
    return re.sub(r"\s+", "", text)


def ungrounded_units(home: Path) -> list[tuple[int, str]]:
    """Stored units whose evidence is missing, cites an unknown paragraph or quotes words not in it."""
    bad: list[tuple[int, str]] = []
    for (uid,) in query(home, "SELECT id FROM unit"):
        evidence = query(
            home,
            "SELECT e.paragraph_id, e.quote, p.text FROM evidence e JOIN unit u ON u.id = e.unit_id "
            "LEFT JOIN paragraph p ON p.article_id = u.article_id AND p.paragraph_id = e.paragraph_id "
            "WHERE e.unit_id = ?",
            (uid,),
        )
        if not evidence:
            bad.append((uid, "no evidence"))
        for pid, quote, text in evidence:
            if text is None:
                bad.append((uid, f"unknown paragraph {pid}"))
            elif not quote.strip() or _squash(quote) not in _squash(text):
                bad.append((uid, f"quote not in {pid}: {quote[:60]!r}"))
    return bad


def _import(home: Path) -> Any:
    return mr(home, "import", str(ARTICLE), "--extractor", "ollama")


def _stored(home: Path) -> tuple[str, list[str], int]:
    extractor, notices = query(home, "SELECT extractor, notices_json FROM artifact")[0]
    return extractor, json.loads(notices), int(query(home, "SELECT COUNT(*) FROM unit")[0][0])


def _with_fault(fault: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], Reply]:
    return lambda body: reply_json(fault(_grounded(body)))


def _invent_ids(data: dict[str, Any]) -> dict[str, Any]:
    for u in data["memory_units"]:
        u["evidence"] = [{"paragraph_id": "p_999", "quote": e["quote"]} for e in u["evidence"]]
    return data


def _invent_quotes(data: dict[str, Any]) -> dict[str, Any]:
    for u in data["memory_units"]:
        u["evidence"] = [
            {"paragraph_id": e["paragraph_id"], "quote": "The moon is made of green cheese."}
            for e in u["evidence"]
        ]
    return data


def _half_invented(data: dict[str, Any]) -> dict[str, Any]:
    for u in data["memory_units"][1::2]:
        u["evidence"] = [
            {"paragraph_id": e["paragraph_id"], "quote": "Invented words nobody wrote."}
            for e in u["evidence"]
        ]
        u["content"] = "INVENTED " + u["content"]
    return data


FAULTS: dict[str, tuple[Callable[[OllamaTestServer, Path], None], str]] = {
    # name: (set the fault up, a word the notice must contain)
    "connection_refused": (lambda s, h: _config(h, closed_port_url()), "cannot reach"),
    "timeout": (
        lambda s, h: (_config(h, s.url, timeout=1), s.respond_with("/api/chat", lambda b: Reply(delay=2.5))),
        "timeout",
    ),
    "http_500": (
        lambda s, h: (
            _config(h, s.url),
            s.respond_with("/api/chat", lambda b: Reply(status=500, body={"error": "boom"})),
        ),
        "500",
    ),
    "unknown_model": (
        lambda s, h: (
            _config(h, s.url, model="nope:1b"),
            s.respond_with(
                "/api/chat",
                lambda b: Reply(
                    status=404, body={"error": 'model "nope:1b" not found, try pulling it first'}
                ),
            ),
        ),
        "ollama pull",
    ),
    "invalid_json": (
        lambda s, h: (
            _config(h, s.url),
            s.respond_with("/api/chat", lambda b: Reply(content="Sure! Here you go: {units: [oops")),
        ),
        "offline",
    ),
    "truncated_json": (
        lambda s, h: (
            _config(h, s.url),
            s.respond_with(
                "/api/chat", lambda b: Reply(content=json.dumps(_grounded(b))[:150], done_reason="length")
            ),
        ),
        "offline",
    ),
    "stream_error": (
        lambda s, h: (
            _config(h, s.url),
            s.respond_with(
                "/api/chat", lambda b: Reply(content=json.dumps(_grounded(b)), stream_error="model crashed")
            ),
        ),
        "offline",
    ),
    "empty_reply": (
        lambda s, h: (_config(h, s.url), s.respond_with("/api/chat", lambda b: Reply(content=""))),
        "offline",
    ),
    "invented_ids": (
        lambda s, h: (_config(h, s.url), s.respond_with("/api/chat", _with_fault(_invent_ids))),
        "offline",
    ),
    "invented_quotes": (
        lambda s, h: (_config(h, s.url), s.respond_with("/api/chat", _with_fault(_invent_quotes))),
        "offline",
    ),
    "slow_drip": (  # a chunk every 0.5 s under a 1 s timeout: the overall deadline (5 s) ends it
        lambda s, h: (
            _config(h, s.url, timeout=1),
            s.respond_with("/api/chat", lambda b: Reply(content='{"summary": "', drip=0.5, repeat=10**6)),
        ),
        "within 5 s",
    ),
    "endless_reply": (  # 3,000 chunks of 64 KB: reading stops at the reply cap
        lambda s, h: (_config(h, s.url), s.respond_with("/api/chat", lambda b: ENDLESS)),
        "not read further",
    ),
}
ENDLESS = Reply(content="x" * 65536, chunk_size=65536, repeat=3000)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_llm_fault_gives_notice_offline_fallback_and_only_grounded_units(
    server: OllamaTestServer, home: Path, fault: str
) -> None:
    setup, word = FAULTS[fault]
    setup(server, home)

    result = _import(home)

    assert result.returncode == 0, result.stderr
    assert "Ollama" in result.stdout and word in result.stdout, result.stdout  # the notice is shown
    _extractor, notices, units = _stored(home)
    assert any("offline" in n for n in notices), notices  # and kept with the artifact
    assert units > 0  # the offline extractor covered the article
    assert ungrounded_units(home) == []
    assert not query(home, "SELECT id FROM unit WHERE content LIKE '%green cheese%'")


def test_fenced_json_is_either_used_grounded_or_falls_back(server: OllamaTestServer, home: Path) -> None:
    _config(home, server.url)
    server.respond_with(
        "/api/chat", lambda b: Reply(content="```json\n" + json.dumps(_grounded(b)) + "\n```")
    )
    result = _import(home)
    assert result.returncode == 0, result.stderr
    assert query(home, "SELECT COUNT(*) FROM unit")[0][0] > 0
    assert ungrounded_units(home) == []


def test_partly_invented_reply_keeps_only_the_grounded_units(server: OllamaTestServer, home: Path) -> None:
    _config(home, server.url)
    server.respond_with("/api/chat", _with_fault(_half_invented))
    result = _import(home)
    assert result.returncode == 0, result.stderr
    assert ungrounded_units(home) == []
    assert not query(home, "SELECT id FROM unit WHERE content LIKE 'INVENTED%'")
    extractor, _, units = _stored(home)
    assert units > 0
    if extractor == "ollama":  # the grounded half was kept, and the dropped half recorded
        dropped = json.loads(query(home, "SELECT dropped_json FROM artifact")[0][0])
        assert dropped, "invented units vanished without a record"


def test_hostile_llm_reply_is_stored_as_data_and_printed_literally(
    server: OllamaTestServer, home: Path
) -> None:
    """Markup and escapes in the model's content, tags and questions never reach the terminal.

    The first unit's content carries the whole payload: its words ("click-me", "PWNED-TITLE")
    are in no quote, so it is dropped as unsupported (issue 34, item 6); the others carry
    controls alone in their content and the payload in their tags and questions."""

    def hostile(data: dict[str, Any]) -> dict[str, Any]:
        for i, u in enumerate(data["memory_units"]):
            payload = f"{MARKUP} {ESCAPES}" if i == 0 else "\x1b\x9b\x07\u202e"
            u["content"] = f"{payload} {u['content']}"
            u["tags"] = [f"x{ESCAPES}", MARKUP]
        for q in data["recall_questions"]:
            q.update(question=f"{MARKUP}{ESCAPES}?", kind="qa")
        return data

    _config(home, server.url)
    server.respond_with("/api/chat", _with_fault(hostile))
    assert _import(home).returncode == 0
    assert ungrounded_units(home) == []
    shown = run_mr_bytes(home, "show", "1")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.decode()
    assert CONTROL_RE.findall(text) == []
    assert query(home, "SELECT extractor FROM artifact")[0][0] == "ollama"  # the hostile reply was used
    assert "[@click=app.quit]click-me[/]" in text
    from .test_stored_text import stored_controls

    assert stored_controls(home) == []  # and not stored either (the store gate, issue 34)
    dropped = json.loads(query(home, "SELECT dropped_json FROM artifact")[0][0])
    assert any("claim_unsupported_sentence" in d["reasons"] for d in dropped)


def test_an_endless_reply_leaves_a_small_library(server: OllamaTestServer, home: Path) -> None:
    """3,000 × 64 KB made a 197 MB library for one article; what is kept is now capped."""
    from core.extraction.ollama.extractor import REPLY_CHARS_PER_TOKEN, STORED_RAW_CHARS

    _config(home, server.url)
    server.respond_with("/api/chat", lambda b: ENDLESS)
    result = _import(home)
    assert result.returncode == 0, result.stderr
    (raw,) = query(home, "SELECT LENGTH(raw_output) FROM artifact")[0]
    windows = len(server.requests_to("/api/chat"))
    assert raw <= min(STORED_RAW_CHARS + 100, windows * (REPLY_CHARS_PER_TOKEN * 3072 + 100))
    size = sum(f.stat().st_size for f in home.glob("memoryrush.sqlite3*"))
    assert size < 4 * 1024 * 1024, f"library is {size / 1e6:.1f} MB"


def test_quitting_works_while_an_import_waits_on_a_dripping_server(
    server: OllamaTestServer, home: Path, tmux: Tmux
) -> None:
    """The app imports with Ollama, the server sends a chunk every 0.5 s without end (a 3 s
    timeout never trips; the deadline is 15 s away): ctrl+q ends the process within the
    3 s grace, nothing half-written stays, and it says what was not saved. The process used
    to stay until the request ended (here: never)."""
    import time

    write(
        home / "config.toml",
        f'[extraction]\nextractor = "ollama"\nollama_host = "{server.url}"\nollama_timeout_s = 3\n',
    )
    server.respond_with("/api/chat", lambda b: Reply(content='{"summary": "', drip=0.5, repeat=10**6))
    target = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home), 120, 40)
    tmux.wait_for(target, Tmux.HOME)
    tmux.keys(target, "i")
    tmux.wait_for(target, "Path to a file")
    tmux.keys(target, "-l", str(ARTICLE))
    tmux.keys(target, "Enter")
    tmux.wait_for(target, "Importing")
    deadline = time.monotonic() + 10
    while not server.requests_to("/api/chat") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.requests_to("/api/chat"), "the import never asked the model"
    asked = time.monotonic()
    tmux.quit_app(target)
    took = time.monotonic() - asked
    assert took < 8, f"quitting took {took:.1f} s"
    screen = tmux.screen(target)
    assert tmux.exit_status(target) == 0, screen
    assert "what it had not finished is not saved" in screen
    assert query(home, "SELECT COUNT(*) FROM article")[0][0] == 0
    assert integrity(home) == "ok"
