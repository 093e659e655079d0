"""The one interface every extractor implements, and the registry that names them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from core.domain import ExtractionResult, SourceDocument
from core.domain.stop import StopFlag


class Extractor(Protocol):
    """Turns a parsed document into an ExtractionResult. Must never raise on odd text.

    `name` and `version` go into the artifact. Deterministic extractors give the same
    output for the same input. `stop` is read inside long work: when it is set, `extract`
    raises `core.domain.errors.Cancelled` (the only exception it may raise).
    """

    name: str
    version: str

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult: ...


ExtractorFactory = Callable[..., Extractor]
_REGISTRY: dict[str, tuple[str, str]] = {
    # name -> (module, factory attribute); imported lazily so start-up stays fast
    "offline": ("core.extraction.offline", "OfflineExtractor"),
    "placeholder": ("core.extraction.placeholder", "PlaceholderExtractor"),
    "ollama": ("core.extraction.ollama", "OllamaExtractor"),
}


def extractor_names() -> list[str]:
    return list(_REGISTRY)


def make_extractor(name: str, **options: Any) -> Extractor:
    """Build an extractor by name; options are passed to its factory (e.g. ollama host/model)."""
    import importlib

    try:
        module_name, attr = _REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown extractor {name!r}; choose one of: {', '.join(extractor_names())}"
        ) from None
    factory: ExtractorFactory = getattr(importlib.import_module(module_name), attr)
    return factory(**options)
