"""One span finder for the validator and the screen: a quote the validator accepts is a quote
the screen can mark, at the exact words of the paragraph that matched."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.text.spans import _find_normalised, exact_quote, find_span
from core.validation import quote_in_paragraph
from tui.safe import find_quote, highlight_quotes

PIECES = st.sampled_from(
    ["光合", "作用", "光合作用", " ", "  ", "\n", "Photo", "SYNTHESIS", "ｐｈｏｔｏ", "ß", "ss", "e\u0301", "é",
     "“", "”", '"', "'", "’", "。", "、", "ﬁ", "fi", "\u3000", "a", "B", "1", "½"]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=12).map("".join)


def test_cjk_spacing_the_validator_accepts_is_found_and_highlighted() -> None:
    paragraph = "…光合作用是植物把光能变成化学能的过程…"
    assert quote_in_paragraph("光合 作用", paragraph)
    assert find_quote(paragraph, "光合 作用") == (1, 5)
    assert [(s.start, s.end) for s in highlight_quotes(paragraph, ["光合 作用"]).spans] == [(1, 5)]


def test_the_span_is_the_paragraphs_own_words() -> None:
    paragraph = "Plants: photosynthesis happens in leaves."
    assert exact_quote("PHOTOSYNTHESIS   HAPPENS", paragraph) == "photosynthesis happens"
    assert exact_quote("ｐｈｏｔｏｓｙｎｔｈｅｓｉｓ", paragraph) == "photosynthesis"  # full-width letters
    assert exact_quote("Straße", "die STRASSE hier") == "STRASSE"
    assert exact_quote("not there", paragraph) == "not there"  # left for the validator to refuse


@settings(max_examples=400, deadline=None)
@given(paragraph=TEXTS, start=st.integers(0, 40), length=st.integers(0, 40), quote=TEXTS)
def test_found_exactly_when_the_validator_accepts(
    paragraph: str, start: int, length: int, quote: str
) -> None:
    for candidate in (paragraph[start : start + length], quote):
        span = find_span(candidate, paragraph)
        assert (span is not None) == quote_in_paragraph(candidate, paragraph)
        if span is not None:
            begin, end = span
            assert 0 <= begin <= end <= len(paragraph)
            found = paragraph[begin:end]
            assert quote_in_paragraph(candidate, found)  # the span holds the whole quote


# Text that NFKC leaves alone and text it changes, next to each other: combining marks that
# compose with the character before them, Hangul jamo that compose into a syllable, compatibility
# forms (Kelvin sign, ligature, full width, diaeresis that becomes a space and a mark), case folds
# that change length, and every kind of white space the rule collapses.
MIXED = st.sampled_from(
    ["memory", "Recall", "证据", "復習", "記憶", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", ".", ",",
     "e", "\u0301", "\u0327", "é", "\u1100", "\u1161", "\u11a8", "가", "\u212a", "K", "ﬁ", "fi", "ｆｉ", "¨",
     "ß", "SS", "ς", "Σ", "İ", "i\u0307", "“", "”", '"', "’", "'", "½", "1/2", "Å", "\u212b", "ℌ"]
)  # fmt: skip
MIXED_TEXTS = st.lists(MIXED, max_size=16).map("".join)


@settings(max_examples=1500, deadline=None)
@given(paragraph=MIXED_TEXTS, quote=MIXED_TEXTS, data=st.data())
def test_the_exact_find_first_gives_the_general_answer(
    paragraph: str, quote: str, data: st.DataObject
) -> None:
    """find_span answers a quote that is the paragraph's own words without normalising either
    text when NFKC leaves both alone: the answer must be the one the general path gives, for
    the paragraph's own words (the common case: an extractor quotes) and for any other quote."""
    start = data.draw(st.integers(0, len(paragraph)))
    end = data.draw(st.integers(start, len(paragraph)))
    for candidate in (paragraph[start:end], quote):
        assert find_span(candidate, paragraph) == _find_normalised(candidate, paragraph)
