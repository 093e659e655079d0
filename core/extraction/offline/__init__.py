"""The offline extractor: the embedded default (no model, no network; English and Chinese).

OfflineExtractor is imported on first use: its modules (tagger, lexicons, the blank model) take
half a second, and a light piece of the package (the sentence splitter the paragraph view's
selection uses) should not pay for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.extraction.offline.extractor import OfflineExtractor


def __getattr__(name: str) -> type[OfflineExtractor]:
    if name == "OfflineExtractor":
        from core.extraction.offline.extractor import OfflineExtractor

        return OfflineExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["OfflineExtractor"]
