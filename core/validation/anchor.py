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
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from core.domain import NON_EVIDENCE_KINDS, SourceParagraph
from core.text import normalize_for_match, squash
from core.text.cjk import HAN_RE
from core.text.spans import quote_in_paragraph

FUZZY_THRESHOLD = 0.85
MIN_SHARED_TOKENS = 0.5  # share of the quote's tokens a paragraph must hold to be searched
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_TOKEN = re.compile(rf"{HAN_RE.pattern}|[^\W_]+|[^\w\s]")


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
    """Old index -> new index for paragraphs whose text did not change, in order.

    The texts found once in each version anchor the map (their longest run in the same order,
    as patience diff does); between anchors, equal texts pair up in order. difflib over the
    paragraph lists took 1.3 s for 2,500 paragraphs with 400 edits; this takes milliseconds,
    and gives the same map for the edits sources see (rewording, insertion, deletion, moves)."""
    out: dict[int, int] = {}
    first_old, first_new = _once(old), _once(new)
    pairs = sorted((i, first_new[t]) for t, i in first_old.items() if t in first_new)
    anchors = _increasing(pairs)
    bounds = [(-1, -1), *anchors, (len(old), len(new))]
    for (a0, b0), (a1, b1) in pairwise(bounds):
        if a1 >= 0 and b1 >= 0 and a1 < len(old) and b1 < len(new):
            out[a1] = b1
        waiting: dict[str, list[int]] = {}
        for j in range(b0 + 1, b1):
            waiting.setdefault(new[j], []).append(j)
        last = b0
        for i in range(a0 + 1, a1):
            spots = [j for j in waiting.get(old[i], ()) if j > last]
            if spots:
                out[i] = last = spots[0]
    return out


def _once(texts: Sequence[str]) -> dict[str, int]:
    """Text -> index, for the texts that occur exactly once."""
    seen: dict[str, int] = {}
    twice: set[str] = set()
    for i, t in enumerate(texts):
        if t in seen:
            twice.add(t)
        seen[t] = i
    return {t: i for t, i in seen.items() if t not in twice}


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of (old, new) pairs, sorted by old, whose new indices increase."""
    tails: list[int] = []  # new index ending the best run of each length
    tail_at: list[int] = []  # which pair ends it
    back = [-1] * len(pairs)
    for k, (_, b) in enumerate(pairs):
        n = bisect_left(tails, b)
        if n == len(tails):
            tails.append(b)
            tail_at.append(k)
        else:
            tails[n] = b
            tail_at[n] = k
        back[k] = tail_at[n - 1] if n else -1
    run: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]


class Reanchor:
    """Old paragraphs, new paragraphs and the map between them; `find` one quote at a time."""

    def __init__(self, old: Sequence[SourceParagraph], new: Sequence[SourceParagraph]) -> None:
        self.old = {p.paragraph_id: p for p in old}
        self.new = list(new)
        self.mapping = paragraph_map([p.text for p in old], [p.text for p in new])
        self.unchanged = set(self.mapping.values())
        self._norm = [normalize_for_match(p.text) for p in self.new]
        self._token_counts: dict[int, tuple[Counter[str], Counter[str]]] = {}
        self._squashed: list[str] | None = None
        # the new paragraphs a quote may be in (never a heading, contents, code or table: no evidence)
        self._prose = [i for i, p in enumerate(self.new) if p.kind not in NON_EVIDENCE_KINDS]

    def _counts(self, i: int) -> tuple[Counter[str], Counter[str]]:
        """Token and number counts of new paragraph `i` (made on first use)."""
        found = self._token_counts.get(i)
        if found is None:
            found = self._token_counts[i] = (
                Counter(_TOKEN.findall(self._norm[i])),
                Counter(_NUMBER.findall(self._norm[i])),
            )
        return found

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
        """The paragraphs a quote may be in (`_prose`), nearest to `at` first."""
        return sorted(self._prose, key=lambda i: abs(i - at))

    def _exact(self, quote: str, at: int) -> int | None:
        # the quote without any whitespace inside the paragraph without any: a cheap test every
        # match passes (the validator's rule, quote_in_paragraph, then decides)
        key = squash(quote)
        if not key:
            return None
        if self._squashed is None:
            self._squashed = [n.replace(" ", "") for n in self._norm]
        for i in self._order(at):
            if key in self._squashed[i] and quote_in_paragraph(quote, self.new[i].text):
                return i
        return None

    def _fuzzy(self, quote: str, at: int) -> Found:
        target = normalize_for_match(quote)
        wanted = Counter(_TOKEN.findall(target))
        numbers = Counter(_NUMBER.findall(target))
        enough = MIN_SHARED_TOKENS * sum(wanted.values())
        best: tuple[float, int, str] = (0.0, -1, "")
        for i in self._order(at):
            # a paragraph without the quote's numbers, or with under half its words, holds
            # no stretch 85% like it: skip it before the costly window search
            words, figures = self._counts(i)
            if numbers - figures or sum((wanted & words).values()) < enough:
                continue
            score, window = best_window(quote, self.new[i].text)
            if score > best[0]:
                best = (score, i, window)
        if best[0] >= FUZZY_THRESHOLD:
            return Found(self.new[best[1]].paragraph_id, best[2], "fuzzy", round(best[0], 4))
        return Found(None, quote, "lost", round(best[0], 4))


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
