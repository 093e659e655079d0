"""What the library stores is what happened (issue 14, item 8): a quote that matched only after
normalisation is stored as the paragraph's own words, and units the offline extractor wrote for
an Ollama window that failed are credited to the offline extractor, not to the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ollama_replies import grounded_output, reply_json, rivers_text
from ollama_server import OllamaTestServer, Reply

from core.host.clock import FixedClock
from core.host.config import Config
from core.ingest import read_document
from core.services.bootstrap import open_services


def window_ids(body: dict[str, Any]) -> list[str]:
    import re

    return re.findall(r"^\[(p_\d+)\]", body["messages"][1]["content"], re.M)


def test_units_of_a_failed_window_are_credited_to_the_offline_extractor(
    tmp_path: Path, data_home: Path, clock: FixedClock
) -> None:
    article = tmp_path / "rivers.md"
    article.write_text(rivers_text(300), encoding="utf-8")  # several windows at the default context
    document = read_document(article)
    failed: set[str] = set()

    def respond(body: dict[str, Any]) -> Reply:
        ids = window_ids(body)
        if not failed:  # the first window's reply is unusable
            failed.update(ids)
            return Reply(content="{not json")
        return reply_json(grounded_output(document, ids, limit=3))

    with OllamaTestServer() as server:
        server.respond_with("/api/chat", respond)
        config = Config(
            extractor="ollama", ollama_host=server.url, ollama_model="tiny:1b", ollama_timeout_s=10
        )
        svc = open_services(data_home, config=config, clock=clock)
        try:
            [outcome] = svc.library.import_paths([article])
            assert outcome.status == "imported", outcome.message
            assert len(server.requests_to("/api/chat")) >= 3  # several windows, one of them failed
            units = svc.library.units(outcome.article_id)
            by = {(u.extractor, u.model) for u in units}
            assert by == {("offline", None), ("ollama", "tiny:1b")}
            for u in units:
                from_failed = {e.paragraph_id for e in u.evidence} <= failed
                assert (u.extractor == "offline") == from_failed, u
            for u in units:
                assert svc.curation.accept(u.id)
            rates = {(r["extractor"], r["model"]): r["accept"] for r in svc.curation.rates()}
            offline = sum(1 for u in units if u.extractor == "offline")
            assert rates == {("offline", None): offline, ("ollama", "tiny:1b"): len(units) - offline}
        finally:
            svc.close()


def test_a_quote_matched_after_normalisation_is_stored_in_the_articles_words(
    tmp_path: Path, data_home: Path, clock: FixedClock
) -> None:
    article = tmp_path / "leaves.md"
    article.write_text(
        "# Leaves\n\nIn every green leaf photosynthesis happens in the chloroplasts.\n\n"
        "光合作用是植物利用光能的过程。\n",
        encoding="utf-8",
    )
    document = read_document(article)
    reply = grounded_output(document, limit=2)
    # (the Chinese quote is the whole sentence its unit says: "光合作用" alone does not back
    # "光合作用是植物利用光能的过程", and a sentence no quote backs is dropped, issue 34)
    written = ["PHOTOSYNTHESIS   HAPPENS in the ｃｈｌｏｒｏｐｌａｓｔｓ", "光合 作用是植物利用光能的过程"]
    for unit, quote in zip(reply["memory_units"], written, strict=True):
        unit["evidence"][0]["quote"] = quote
    reply["core_ideas"][0]["evidence"] = reply["memory_units"][0]["evidence"]
    with OllamaTestServer() as server:
        server.chat(reply_json(reply))
        config = Config(extractor="ollama", ollama_host=server.url, ollama_timeout_s=10)
        svc = open_services(data_home, config=config, clock=clock)
        try:
            [outcome] = svc.library.import_paths([article])
            assert outcome.status == "imported", outcome.message
            quotes = [e.quote for u in svc.library.units(outcome.article_id) for e in u.evidence]
            summary = svc.library.summary(outcome.article_id)
        finally:
            svc.close()
    assert quotes == ["photosynthesis happens in the chloroplasts", "光合作用是植物利用光能的过程"]
    assert summary is not None
    [idea] = summary["output"]["core_ideas"]  # type: ignore[index]
    assert idea["evidence"][0]["quote"] == "photosynthesis happens in the chloroplasts"
