"""Is this line a title? One rule for the plain-text reader (a .txt article's first line
becomes its title) and the offline extractor (such lines are never quoted as a fact)."""

from __future__ import annotations

import re

from core.text.cjk import HAN_RE

_SENTENCE_PUNCTUATION = re.compile(r"[.!?。！？；;]")


def looks_like_title(text: str) -> bool:
    """A short line with no sentence punctuation: at most 80 characters (30 with Chinese or
    Japanese in it), no . ! ? ; (nor their full-width forms). "Photosynthesis: how plants store
    sunlight" is one; "Plants store sunlight." is not."""
    stripped = text.strip()
    if not stripped or _SENTENCE_PUNCTUATION.search(stripped):
        return False
    return len(stripped) <= (30 if HAN_RE.search(stripped) else 80)
