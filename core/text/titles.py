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


_ADDRESS = re.compile(r"https?://|\bwww\.|\S@\S+\.\w|^(?:copyright\b|©)", re.IGNORECASE)
_ORGANISATION = re.compile(
    r"(?:\b(?:inc|ltd|llc|gmbh|corp|corporation|group|foundation|consortium|association"
    r"|institute|university|organi[sz]ation|committee)\.?)\s*$",
    re.IGNORECASE,
)


def names_a_publisher(text: str) -> bool:
    """A line that names who published a document, not what it is: a web or mail address in
    it ("X Desktop Group (http://www.freedesktop.org)"), a copyright line, or a name ending as
    an organisation's does ("Red Hat, Inc.", "W3C Working Group"). A PDF's metadata Title often
    holds one (issue 32); the document's first large heading is its title then."""
    stripped = " ".join(text.split())
    return bool(_ADDRESS.search(stripped) or _ORGANISATION.search(stripped))
