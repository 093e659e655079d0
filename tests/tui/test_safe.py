"""The sanitiser path: literal Content, no control characters, quotes found despite curly quotes."""

from __future__ import annotations

from tui.safe import cell, content, find_quote, highlight_quotes


def test_content_is_literal_and_control_free() -> None:
    shown = content("[@click=app.quit]x[/] \x1b]2;title\x07 [bold]y")
    assert shown.plain == "[@click=app.quit]x[/] ]2;title [bold]y"
    assert not shown.spans
    assert cell("[red]t\x1b[31m").plain == "[red]t [31m"


def test_quotes_are_found_through_curly_quotes_and_spacing() -> None:
    text = "He said “spaced   repetition” works.  It   really does."
    assert find_quote(text, 'said "spaced repetition" works.') == (3, 36)
    assert find_quote(text, "IT REALLY does") == (38, 54)
    assert find_quote(text, "absent") is None
    marked = highlight_quotes(text, ["really does"])
    assert [(s.start, s.end) for s in marked.spans] == [(43, 54)]
