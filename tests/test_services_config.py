"""New settings reach the services of an open library (the Settings screen relies on it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core.services.bootstrap import Services
from tests.conftest import SAMPLES


def test_a_new_extractor_setting_is_used_by_the_next_import(services: Services, tmp_path: Path) -> None:
    article = tmp_path / "note.txt"
    article.write_text((SAMPLES / "photosynthesis.txt").read_text(encoding="utf-8"), encoding="utf-8")
    services.library.units()  # the library service exists before the change
    services.config = replace(services.config, extractor="placeholder", max_file_mb=0.001)
    assert services.library.config.max_file_mb == 0.001
    services.config = replace(services.config, max_file_mb=10.0)
    [outcome] = services.library.import_paths([article])
    assert outcome.status == "imported", outcome.message
    units = services.library.units(outcome.article_id)
    assert units and {u.extractor for u in units} == {"placeholder"}


def test_services_built_after_the_change_see_it_too(services: Services, tmp_path: Path) -> None:
    services.config = replace(services.config, extractor="placeholder")
    article = tmp_path / "note.txt"
    article.write_text("One plain sentence about memory. Another about review.\n", encoding="utf-8")
    [outcome] = services.library.import_paths([article])
    assert {u.extractor for u in services.library.units(outcome.article_id)} == {"placeholder"}


def test_search_follows_a_new_embedding_setting(services: Services, tmp_path: Path) -> None:
    """Search was built once from the opening configuration: a model set later never reached it."""
    from ollama_server import OllamaTestServer, Reply

    article = tmp_path / "pets.txt"
    article.write_text("Pets\n\nMy pet is a goldfish.\n\nMy pet is a cat.\n", encoding="utf-8")
    services.library.import_paths([article], extractor="offline")
    services.search.search("pet")  # the search service exists before the change
    assert services.search.embedder is None
    with OllamaTestServer() as server:
        server.respond_with(
            "/api/embed",
            lambda body: Reply(body={"model": body["model"], "embeddings": [[1.0]] * len(body["input"])}),
        )
        services.config = replace(services.config, embed_model="nomic-embed-text", ollama_host=server.url)
        services.search.search("pet")
        assert server.requests_to("/api/embed")
    services.config = replace(services.config, embed_model="")
    assert services.search.embedder is None
