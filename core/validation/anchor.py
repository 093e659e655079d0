"""Find every quote again when its source changed (pure: no I/O).

A changed source is a new list of paragraphs. Old and new paragraphs are matched by their text
(difflib over the paragraph texts: unchanged paragraphs keep their place in the sequence even
when others were inserted or removed). Each quote is then looked for:

1. exactly (the validator's rule, `quote_in_paragraph`): first in the new paragraph its old
   paragraph became, then in the others, nearest to where it was;
2. a variant the caller supplies (the quote rendered the new reader's way, e.g. without the
   Markdown markup an old reader kept);
3. fuzzily: the window of a new paragraph most similar to the quote (difflib ratio of the
   normalised texts) at or above FUZZY_THRESHOLD, and with the same numbers: "grows 3x" and
   "grows 5x" are 96% alike and not the same fact.

A quote found neither way is lost: its unit is flagged "source changed" by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from core.domain import SourceParagraph
from core.text import CJK_RE, normalize_for_match
from core.validation.evidence import quote_in_paragraph

FUZZY_THRESHOLD = 0.85
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_TOKEN = re.compile(rf"{CJK_RE.pattern}|[^\W_]+|[^\w\s]")


@dataclass(frozen=True, slots=True)
class Found:
    """Where one old quote is in the new text."""

    paragraph_id: str | None  # None: lost
    quote: str  # the quote in the new text (the old one when exact or lost)
    # "same" (same paragraph id), "moved" (another paragraph), "rendered" (a variant: the same
    # words shown the new reader's way), "fuzzy" (similar words), "lost"
    outcome: str
    similarity: float = 1.0


def paragraph_map(old: Sequence[str], new: Sequence[str]) -> dict[int, int]:
    """Old index -> new index for paragraphs whose text did not change."""
    matcher = SequenceMatcher(None, list(old), list(new), autojunk=False)
    out: dict[int, int] = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            out[a + k] = b + k
    return out


class Reanchor:
    """Old paragraphs, new paragraphs and the map between them; `find` one quote at a time."""

    def __init__(self, old: Sequence[SourceParagraph], new: Sequence[SourceParagraph]) -> None:
        self.old = {p.paragraph_id: p for p in old}
        self.new = list(new)
        self.mapping = paragraph_map([p.text for p in old], [p.text for p in new])
        self.unchanged = set(self.mapping.values())
        self._norm = [normalize_for_match(p.text) for p in self.new]

    def expected(self, old_id: str) -> int:
        """Where the paragraph `old_id` is (or would be) in the new text."""
        old = self.old.get(old_id)
        if old is None:
            return 0
        if old.index in self.mapping:
            return self.mapping[old.index]
        before = [n for o, n in self.mapping.items() if o < old.index]
        return max(before) + 1 if before else 0

    def find(self, old_id: str, quote: str, variants: Sequence[str] = ()) -> Found:
        at = self.expected(old_id)
        for candidate in (quote, *variants):
            index = self._exact(candidate, at)
            if index is not None:
                pid = self.new[index].paragraph_id
                if candidate != quote:
                    return Found(pid, candidate, "rendered")
                return Found(pid, candidate, "same" if pid == old_id else "moved")
        return self._fuzzy(quote, at)

    def _order(self, at: int) -> list[int]:
        return sorted(range(len(self.new)), key=lambda i: abs(i - at))

    def _exact(self, quote: str, at: int) -> int | None:
        key = max(normalize_for_match(quote).split(), key=len, default="")
        if not key:
            return None
        for i in self._order(at):
            if key in self._norm[i] and quote_in_paragraph(quote, self.new[i].text):
                return i
        return None

    def _fuzzy(self, quote: str, at: int) -> Found:
        target = normalize_for_match(quote)
        best: tuple[float, int, str] = (0.0, -1, "")
        for i in self._order(at):
            if i in self.unchanged and not _shares(target, self._norm[i]):
                continue
            score, window = best_window(quote, self.new[i].text)
            if score > best[0]:
                best = (score, i, window)
        if best[0] >= FUZZY_THRESHOLD:
            return Found(self.new[best[1]].paragraph_id, best[2], "fuzzy", round(best[0], 4))
        return Found(None, quote, "lost", round(best[0], 4))


def _shares(target: str, paragraph: str) -> bool:
    words = [w for w in target.split() if len(w) > 3][:8]
    return any(w in paragraph for w in words)


def best_window(quote: str, text: str, *, same_numbers: bool = True) -> tuple[float, str]:
    """The stretch of `text` most like `quote`: (similarity of the normalised texts, stretch).

    Candidate stretches start and end on token boundaries of `text`, around the places where
    difflib aligns the quote's tokens with it; the stretch returned is an exact substring."""
    tokens = [(m.start(), m.end(), normalize_for_match(m.group())) for m in _TOKEN.finditer(text)]
    qtokens = [normalize_for_match(t) for t in _TOKEN.findall(quote)]
    if not tokens or not qtokens:
        return 0.0, ""
    target = normalize_for_match(quote)
    numbers = sorted(_NUMBER.findall(target))
    matcher = SequenceMatcher(None, [t[2] for t in tokens], qtokens, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    n = len(qtokens)
    # where the quote would start and end in the text if each aligned block were its anchor
    starts = {a - b + d for a, b, _ in blocks for d in (-1, 0, 1)} | {blocks[0].a} if blocks else set()
    ends = (
        {a + (n - b) + d for a, b, _ in blocks for d in (-1, 0, 1)} | {blocks[-1].a + blocks[-1].size}
        if blocks
        else set()
    )
    best = (0.0, "")
    for start in sorted(x for x in starts if 0 <= x < len(tokens))[:12]:
        for end in sorted(x for x in ends if start < x <= len(tokens))[:12]:
            window = text[tokens[start][0] : tokens[end - 1][1]]
            folded = normalize_for_match(window)
            if same_numbers and sorted(_NUMBER.findall(folded)) != numbers:
                continue  # "grows 3x" is not "grows 5x", however alike
            score = SequenceMatcher(None, folded, target, autojunk=False).ratio()
            if score > best[0]:
                best = (score, window)
    return best


def reanchor_quotes(
    old: Sequence[SourceParagraph],
    new: Sequence[SourceParagraph],
    quotes: Sequence[tuple[str, str]],
    variants: Mapping[str, Sequence[str]] | None = None,
) -> list[Found]:
    """Each (old paragraph id, quote) found again in `new` (see the module docstring)."""
    finder = Reanchor(old, new)
    return [finder.find(pid, quote, (variants or {}).get(quote, ())) for pid, quote in quotes]
