"""Counts in words: the one pluralisation rule the app, the CLI and the services use.

"1 day", "2 days", "0 cards", "1 history", "3 histories". English only: the interface is in
English (articles may be in any language; what they say is never counted in words here).
"""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and `word` in the number it calls for: plural(1, "card") -> "1 card",
    plural(0, "card") -> "0 cards", plural(2, "history", "histories") -> "2 histories"."""
    return f"{n} {word if n == 1 else (many if many is not None else word + 's')}"
