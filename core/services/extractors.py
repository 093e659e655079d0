"""The extractor the settings ask for: offline by default, or Ollama with its host and model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.host.config import Config

if TYPE_CHECKING:  # extractors are imported when one is made: a faster start-up
    from core.extraction.base import Extractor


def configured_extractor(config: Config, name: str | None = None) -> Extractor:
    """The extractor `name` (None: the configured one), with its options from `config`."""
    from core.extraction.base import make_extractor

    chosen = name or config.extractor
    if chosen == "ollama":
        return make_extractor(
            "ollama",
            host=config.ollama_host or None,
            model=config.ollama_model,
            timeout=config.ollama_timeout_s,
            deadline=config.ollama_deadline_s,
            allow_remote=config.ollama_allow_remote,
        )
    return make_extractor(chosen)
