"""How many units an article gets, and from which of its parts (issue 30).

The count follows the *substantive* text: the eligible sentences, prose that may become a unit
(eligible.py), never code, tables, headings, navigation, lists of links or captions. Its size is
counted in units' worth: a sentence's characters over PER_UNIT of its language.

* Up to HEAD units' worth (a news story, an abstract) the rule the eval tuned stays: 2 units
  plus one per unit's worth, so 12 at 2,500 English or 900 Chinese characters, and a note or an
  abstract shorter than three units' worth kept nearly whole (up to 8 sentences).
* Beyond it, no cap: one more unit per TAIL units' worth, 1,200 English characters (~200
  words at the 5.7-6.3 characters a word, space included, of the manuals and PDFs
  bench/count_by_length.py reads) or 430 Chinese characters (PER_UNIT's ratio, tuned on the
  eval; the bilingual sample articles take 3.3 English characters per Chinese one, so Chinese
  gets ~15% fewer units for the same content). A 5,000-word chapter gets ~35, a 100,000-word
  book ~500. On one half of the eval's dev split (its long SQuAD and DRCD articles), TAIL
  from 3 to 8 (750 to 2,000 characters a unit) kept the macro ratios within 0.01 (1.038-1.049
  to TextRank, 0.991-0.999 to lead): the eval does not choose the rate, so it is the reading
  one, about a card per long paragraph.

A long text is read part by part: its chapters (EPUB), then its headings level by level, then
10-page ranges (PDF), then runs of paragraphs, until no part's share is above MAX_SHARE units.
Each part gets its share in proportion to its substantive text (largest remainder, ties to the
earlier part), chosen inside the part by salience and MMR with the part's own lead, so every
chapter of a book gets its units and a part that is code or a link list gets none.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from core.domain import Locator
from core.extraction.offline.segment import Sentence

PER_UNIT = {"en": 250, "zh": 90}  # characters of prose per unit, up to HEAD
HEAD = 10  # units' worth of text counted at the dense rate (12 units)
TAIL = 4.8  # units' worth per unit beyond HEAD (1,200 English / 430 Chinese characters)
MAX_SHARE = 12  # a part whose share is larger is divided by its next level
PAGES = 10  # pages in a range, the level after the headings (a PDF without headings)

_NOWHERE = Locator()
_Key = Callable[[Locator], object]
_LEVELS: tuple[_Key, ...] = (
    lambda loc: loc.chapter,
    lambda loc: loc.section[:1],
    lambda loc: loc.section[:2],
    lambda loc: loc.section[:3],
    lambda loc: loc.section[:4],
    lambda loc: None if loc.page is None else (loc.page - 1) // PAGES,
)


@dataclass(frozen=True, slots=True)
class Part:
    """Consecutive prose sentences of one part (every one: the statistics; the eligible ones
    are the candidates), where the first sits in the document's list, and its share of units."""

    sentences: list[Sentence]
    first: int
    units: int


def worth(chars: int, lang: str) -> float:
    """Units' worth of `chars` characters of text in `lang`."""
    return chars / PER_UNIT.get(lang, PER_UNIT["en"])


def substance(s: Sentence) -> float:
    """A sentence's units' worth when it may be a unit, else 0."""
    return worth(len(s.text), s.lang) if s.eligible else 0.0


def unit_count(size: float, candidates: int, fixed: int | None = None) -> int:
    """Units for `size` units' worth of substantive text (see the module's doc), at most one per
    candidate. `fixed` replaces the rule with that count (bounded by the candidates)."""
    if fixed is not None:
        return max(0, min(fixed, candidates))
    if size > HEAD:
        want = 12 + int((size - HEAD) / TAIL)
    else:
        want = min(12, 2 + int(size))
        if size <= 3:
            want = max(want, min(8, candidates))
    return max(0, min(want, candidates))


def parts(sentences: list[Sentence], locators: Mapping[str, Locator], units: int) -> list[Part]:
    """The document's prose sentences cut into parts, each with its share of `units`."""
    if not sentences:
        return []
    sizes = [substance(s) for s in sentences]
    total = sum(sizes)
    if total <= 0 or units <= 0:
        return [Part(sentences, 0, 0)]
    rate = units / total
    spans = _divide((0, len(sentences)), 0, sentences, sizes, locators, rate)
    shares = _shares([rate * sum(sizes[a:b]) for a, b in spans], units)
    return [Part(sentences[a:b], a, n) for (a, b), n in zip(spans, shares, strict=True)]


def _divide(
    span: tuple[int, int],
    level: int,
    sentences: Sequence[Sentence],
    sizes: Sequence[float],
    locators: Mapping[str, Locator],
    rate: float,
) -> list[tuple[int, int]]:
    a, b = span
    if rate * sum(sizes[a:b]) <= MAX_SHARE:
        return [span]
    while level < len(_LEVELS):
        key = _LEVELS[level]
        level += 1
        runs = _runs(a, [key(locators.get(s.paragraph_id, _NOWHERE)) for s in sentences[a:b]])
        if len(runs) > 1:
            return [p for run in runs for p in _divide(run, level, sentences, sizes, locators, rate)]
    return _chunks(span, sentences, sizes, rate)


def _runs(a: int, keys: Sequence[object]) -> list[tuple[int, int]]:
    """Runs of consecutive sentences with the same key, the first being sentence `a`."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(keys)):
        if keys[i] != keys[i - 1]:
            out.append((a + start, a + i))
            start = i
    out.append((a + start, a + len(keys)))
    return out


def _chunks(
    span: tuple[int, int], sentences: Sequence[Sentence], sizes: Sequence[float], rate: float
) -> list[tuple[int, int]]:
    """Runs of whole paragraphs of about equal substance, none above MAX_SHARE if it can be."""
    a, b = span
    total = sum(sizes[a:b])
    n = math.ceil(rate * total / MAX_SHARE)
    out: list[tuple[int, int]] = []
    start, acc = a, 0.0
    for i in range(a, b):
        boundary = i > start and sentences[i].paragraph_id != sentences[i - 1].paragraph_id
        if boundary and acc >= total * (len(out) + 1) / n and len(out) < n - 1:
            out.append((start, i))
            start = i
        acc += sizes[i]
    out.append((start, b))
    return out


def _shares(exact: list[float], units: int) -> list[int]:
    """Whole shares summing to `units`: floors, then the largest remainders (earlier first)."""
    floors = [int(x) for x in exact]
    left = units - sum(floors)
    by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in by_remainder[: max(0, left)]:
        floors[i] += 1
    return floors
