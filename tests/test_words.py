"""The one pluralisation rule: one of a thing, otherwise many (zero too)."""

from __future__ import annotations

from core.text.words import plural


def test_one_is_singular_and_zero_and_many_are_plural() -> None:
    assert plural(1, "day") == "1 day"
    assert plural(0, "day") == "0 days"
    assert plural(11, "answer") == "11 answers"
    assert plural(1, "history", "histories") == "1 history"
    assert plural(2, "history", "histories") == "2 histories"
