"""Host resolution and locality, and the test server's protocol as the real ollama client sees it."""

from __future__ import annotations

from collections.abc import Iterator

import ollama
import pytest
from ollama_server import OllamaTestServer, Reply

from core.extraction.ollama.client import is_loopback, resolve_host


@pytest.mark.parametrize(
    ("given", "url", "local"),
    [
        (None, "http://127.0.0.1:11434", True),
        ("", "http://127.0.0.1:11434", True),
        ("localhost", "http://localhost:11434", True),
        (":5000", "http://127.0.0.1:5000", True),
        ("http://127.0.0.2:8080/", "http://127.0.0.2:8080", True),
        ("[::1]:7000", "http://[::1]:7000", True),
        ("0.0.0.0", "http://0.0.0.0:11434", True),
        ("https://ollama.example.com", "https://ollama.example.com:443", False),
        ("192.168.1.20:11434", "http://192.168.1.20:11434", False),
        ("http://10.0.0.5", "http://10.0.0.5:80", False),
    ],
)
def test_resolve_host_and_locality(given: str | None, url: str, local: bool) -> None:
    assert resolve_host(given) == url
    assert is_loopback(url) is local


def test_env_is_used_only_without_a_configured_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box:11434")
    assert resolve_host(None) == "http://gpu-box:11434"
    assert resolve_host("http://127.0.0.1:9") == "http://127.0.0.1:9"


@pytest.fixture
def client() -> Iterator[tuple[OllamaTestServer, ollama.Client]]:
    with OllamaTestServer() as server:
        c = ollama.Client(host=server.url, timeout=5, trust_env=False)
        yield server, c
        c.close()


@pytest.mark.parametrize("stream", [True, False])
def test_server_speaks_chat_and_generate(
    client: tuple[OllamaTestServer, ollama.Client], stream: bool
) -> None:
    server, c = client
    text = "a reply long enough to arrive in several chunks when streamed " * 3
    server.chat(Reply(content=text))
    server.script("/api/generate", Reply(content=text))
    if stream:
        chat = "".join(p.message.content or "" for p in c.chat(model="m", messages=[], stream=True))
        gen = "".join(p.response for p in c.generate(model="m", prompt="hi", stream=True))
    else:
        chat = c.chat(model="m", messages=[{"role": "user", "content": "hi"}]).message.content or ""
        gen = c.generate(model="m", prompt="hi").response
    assert chat == gen == text
    assert [r.body["stream"] for r in server.requests_to("/api/chat")] == [stream]


def test_server_embeds_and_lists(client: tuple[OllamaTestServer, ollama.Client]) -> None:
    _, c = client
    vectors = c.embed(model="nomic-embed-text", input=["one", "two"]).embeddings
    assert len(vectors) == 2 and vectors[0] != vectors[1] and len(vectors[0]) == 8
    assert [m.model for m in c.list().models] == ["qwen2.5:7b-instruct", "nomic-embed-text:latest"]


def test_unscripted_chat_is_an_error_not_a_silent_pass(
    client: tuple[OllamaTestServer, ollama.Client],
) -> None:
    _, c = client
    with pytest.raises(ollama.ResponseError) as info:
        c.chat(model="m", messages=[])
    assert info.value.status_code == 500
