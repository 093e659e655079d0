"""Is this quote in this paragraph, and where: one answer for the validator and the screen.

The rule (`quote_in_paragraph`, the validator's): the quote occurs in the paragraph once both are normalised (NFKC,
curly quotes straightened, case folded, whitespace collapsed); a quote that only differs by
spaces next to CJK characters ("光合 作用" in "光合作用") also matches. `find_span` answers
where: the exact (start, end) of the paragraph's own text that matched, whenever the rule says
the quote is there, so evidence the validator accepts is always the evidence the screen marks.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from unicodedata import is_normalized

from core.text import QUOTE_FOLD, normalize_for_match
from core.text.cjk import HAN_RE

Span = tuple[int, int]
# A space next to a CJK character carries no meaning ("光合 作用" == "光合作用").
_CJK_SPACE = re.compile(rf" (?={HAN_RE.pattern})|(?<={HAN_RE.pattern}) ")
_WS = re.compile(r"\s")


def _squeeze_cjk(normalised: str) -> str:
    return _CJK_SPACE.sub("", normalised)


def quote_in_paragraph(quote: str, paragraph: str) -> bool:
    """True when the quote occurs in the paragraph after normalisation (the validator's rule)."""
    q = normalize_for_match(quote)
    if not q:
        return False
    p = normalize_for_match(paragraph)
    return q in p or _squeeze_cjk(q) in _squeeze_cjk(p)


def find_span(quote: str, paragraph: str) -> Span | None:
    """Where the quote sits in the paragraph: (start, end) of the paragraph's text, or None
    exactly when `quote_in_paragraph` is false.

    The common case first: the quote is the paragraph's own words and neither text changes
    under NFKC (pure ASCII, most Chinese). Then the rule holds without normalising anything:
    case folding and quote straightening go character by character, and collapsing white space
    keeps a stripped quote's inside whole, so the first exact occurrence is the answer the
    general path gives too (tests/test_spans.py checks the two against each other). Normalising
    the paragraph was a tenth of an Anki export's time."""
    if quote.strip():
        start = paragraph.find(quote)
        if start >= 0 and is_normalized("NFKC", paragraph) and is_normalized("NFKC", quote):
            return start, start + len(quote)
    return _find_normalised(quote, paragraph)


def _find_normalised(quote: str, paragraph: str) -> Span | None:
    """`find_span` for any text: the rule on the normalised texts, then the paragraph's span."""
    if not quote_in_paragraph(quote, paragraph):
        return None
    start = paragraph.find(quote) if quote.strip() else -1
    if start >= 0:
        return start, start + len(quote)
    mapped = _Mapped.of(paragraph)
    if mapped.text == normalize_for_match(paragraph):
        span = mapped.find(normalize_for_match(quote))
        if span is not None:
            return span
    return _narrowest(quote, paragraph)


def exact_quote(quote: str, paragraph: str) -> str:
    """The paragraph's own words for a quote that matches it (the quote itself otherwise)."""
    if quote.strip() and quote in paragraph:
        return quote
    span = find_span(quote, paragraph)
    if span is None:
        return quote
    exact = paragraph[span[0] : span[1]]
    return exact if quote_in_paragraph(exact, paragraph) else quote


@dataclass(frozen=True, slots=True)
class _Mapped:
    """A paragraph normalised as `normalize_for_match` does, with each normalised character's
    source span (start of its first, end of its last source character)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, paragraph: str) -> _Mapped:
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        i, n = 0, len(paragraph)
        while i < n:
            j = i + 1  # a character with its combining marks normalises as one piece
            while j < n and unicodedata.combining(paragraph[j]):
                j += 1
            piece = paragraph[i:j]
            if not piece.isascii():
                piece = unicodedata.normalize("NFKC", piece).translate(QUOTE_FOLD)
            for ch in piece.casefold():
                if _WS.match(ch):
                    if chars and chars[-1] == " ":  # a run of white space is one space
                        ends[-1] = j
                        continue
                    ch = " "
                chars.append(ch)
                starts.append(i)
                ends.append(j)
            i = j
        while chars and chars[-1] == " ":  # stripped, as normalize_for_match strips
            del chars[-1], starts[-1], ends[-1]
        skip = 1 if chars and chars[0] == " " else 0
        return cls("".join(chars[skip:]), tuple(starts[skip:]), tuple(ends[skip:]))

    def find(self, quote: str) -> Span | None:
        """The source span of a normalised quote (or of its CJK-squeezed form)."""
        at = self.text.find(quote) if quote else -1
        if at >= 0:
            return self.starts[at], self.ends[at + len(quote) - 1]
        kept = [k for k in range(len(self.text)) if not _squeezed_out(self.text, k)]
        squeezed = "".join(self.text[k] for k in kept)
        target = _squeeze_cjk(quote)
        at = squeezed.find(target) if target else -1
        if at < 0:
            return None
        return self.starts[kept[at]], self.ends[kept[at + len(target) - 1]]


def _squeezed_out(text: str, k: int) -> bool:
    """Whether the space at `k` is one `_CJK_SPACE` removes (next to a CJK character)."""
    if text[k] != " ":
        return False
    return (k + 1 < len(text) and bool(HAN_RE.match(text[k + 1]))) or (
        k > 0 and bool(HAN_RE.match(text[k - 1]))
    )


def _narrowest(quote: str, paragraph: str) -> Span:
    """The span for text whose normalisation is not character by character (a composition
    across characters): the shortest prefix that still matches, then its shortest suffix."""
    lo, hi = 1, len(paragraph)
    while lo < hi:
        mid = (lo + hi) // 2
        if quote_in_paragraph(quote, paragraph[:mid]):
            hi = mid
        else:
            lo = mid + 1
    end = lo
    lo, hi = 0, end - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if quote_in_paragraph(quote, paragraph[mid:end]):
            lo = mid
        else:
            hi = mid - 1
    if quote_in_paragraph(quote, paragraph[lo:end]):
        return lo, end
    return 0, len(paragraph)
