"""The offline extractor: the embedded default (no model, no network; English and Chinese)."""

from core.extraction.offline.extractor import OfflineExtractor

__all__ = ["OfflineExtractor"]
