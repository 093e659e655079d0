"""Local-LLM extraction through Ollama (structured output, repair, offline fallback)."""

from core.extraction.ollama.client import OllamaUnavailable, list_models, resolve_host
from core.extraction.ollama.extractor import DEFAULT_MODEL, OllamaExtractor

__all__ = ["DEFAULT_MODEL", "OllamaExtractor", "OllamaUnavailable", "list_models", "resolve_host"]
