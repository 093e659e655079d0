"""Optional semantic rerank over Ollama /api/embed (a real loopback HTTP server, the real
ollama client); without a reachable model, search stays lexical and fast."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ollama_server import OllamaTestServer, Reply, closed_port_url

from core.host.clock import FixedClock
from core.host.config import Config
from core.services.bootstrap import open_services

TEXT = """Pets

My pet is a goldfish that swims in a bowl all day.

My pet is a feline friend that purrs on the sofa.
"""


WORD = {"p_002": "goldfish", "p_003": "feline"}


def _embedder(near: str) -> Callable[[dict[str, Any]], Reply]:
    """An embedder that puts the query ("pet") beside the texts holding `near` only."""

    def embed(body: dict[str, Any]) -> Reply:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = [[1.0, 0.0, 0.0] if (near in t or t == "pet") else [0.0, 1.0, 0.0] for t in texts]
        return Reply(body={"model": body["model"], "embeddings": vectors})

    return embed


def _library(tmp_path: Path, home: Path, config: Config, clock: FixedClock):  # type: ignore[no-untyped-def]
    svc = open_services(home, config=config, clock=clock)
    path = tmp_path / "pets.txt"
    path.write_text(TEXT, encoding="utf-8")
    (outcome,) = svc.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported"
    svc.search.signals = False
    return svc


def test_semantic_order_breaks_a_lexical_tie(tmp_path: Path, data_home: Path, clock: FixedClock) -> None:
    lexical = _library(tmp_path, data_home, Config(), clock)
    try:
        # each paragraph once (a paragraph is followed by its unit when the unit has the word too)
        plain = list(dict.fromkeys(h.paragraph_id for h in lexical.search.search("pet", 5)))
    finally:
        lexical.close()
    assert sorted(plain[:2]) == ["p_002", "p_003"]  # both match "pet"; which wins is BM25's tie-break
    second = plain[1]  # the meaning puts the lexical runner-up first
    with OllamaTestServer() as server:
        server.respond_with("/api/embed", _embedder(WORD[second].lower()))
        svc = open_services(
            data_home, config=Config(embed_model="nomic-embed-text", ollama_host=server.url), clock=clock
        )
        try:
            svc.search.signals = False
            hits = svc.search.search("pet", 5)
        finally:
            svc.close()
        assert hits[0].paragraph_id == second  # closest to the query vector
        assert server.requests_to("/api/embed")


def test_unreachable_embedder_means_lexical_only(tmp_path: Path, data_home: Path, clock: FixedClock) -> None:
    config = Config(embed_model="nomic-embed-text", ollama_host=closed_port_url())
    svc = _library(tmp_path, data_home, config, clock)
    try:
        import ollama  # noqa: F401  (its import, 0.5 s here and 2.5-3.7 s at nice 19, is not the wait)

        started = time.perf_counter()
        hits = svc.search.search("goldfish", 5)
        assert time.perf_counter() - started < 5  # no wait for the model's timeout
        assert hits and hits[0].paragraph_id == "p_002"
    finally:
        svc.close()
