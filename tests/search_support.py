"""Shared by the search tests: a library made of small texts, imported with the offline extractor."""

from __future__ import annotations

from pathlib import Path

from core.services.bootstrap import Services


def import_texts(services: Services, folder: Path, texts: dict[str, str]) -> dict[str, int]:
    """Import `texts` (file stem: text) as .txt files in `folder`; their article ids by stem."""
    folder.mkdir(exist_ok=True)
    ids: dict[str, int] = {}
    for name, text in texts.items():
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        (outcome,) = services.library.import_paths([path], extractor="offline")
        assert outcome.status == "imported", outcome.message
        assert outcome.article_id is not None
        ids[name] = outcome.article_id
    return ids
