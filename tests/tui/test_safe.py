"""The sanitiser path: literal Content, no control characters, quotes found despite curly quotes."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

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


def test_the_gate_takes_out_bidi_overrides_and_shows_lone_surrogates() -> None:
    from core.text import sanitize

    evil = "report\u202etxt.exe \u2066x\u2069 caf\udce9 \u200fmark"
    assert sanitize(evil) == "reporttxt.exe x caf\ufffd \u200fmark"  # RLM is a mark: kept
    one_line = sanitize(evil + "\n\tend", single_line=True)
    assert one_line == "report txt.exe  x  caf\ufffd \u200fmark  end"
    assert len(one_line) == len(evil + "\n\tend")  # one for one: an Input's cursor stays put


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)), st.booleans())
def test_printable_ascii_passes_the_gate_as_it_is_and_controls_do_not(text: str, single_line: bool) -> None:
    """sanitize returns printable ASCII untouched without its character classes (the first frame's
    title): the same result the classes give, for every ASCII text."""
    from core.text import BIDI_CONTROLS, sanitize

    klass = "\\x00-\\x1f" if single_line else "\\x00-\\x08\\x0b-\\x1f"
    expected = re.sub(f"[{klass}\\x7f-\\x9f{BIDI_CONTROLS}]", " " if single_line else "", text)
    assert sanitize(text, single_line=single_line) == (
        expected if single_line else expected.replace("\t", "    ")
    )
