"""The offline extractor (TEMPORARY: the placeholder until the real one lands)."""

from core.extraction.placeholder import PlaceholderExtractor as OfflineExtractor

__all__ = ["OfflineExtractor"]
