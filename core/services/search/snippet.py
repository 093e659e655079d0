"""Snippets: a one-line window of a paragraph or unit around the best match, with the offsets
of the matched words (for highlighting without markup). Text is sanitised here."""

from __future__ import annotations

from functools import lru_cache

from core.text import sanitize
from core.text.analysis import STOP, is_cjk, normalize, run_matches, runs, stem
from core.text.chinese import fold_chinese

BEFORE, WIDTH = 60, 200


class _Words(dict[str, bool]):
    """The English words of one query as the snippet marks them: a word of the text (a run of
    letters and digits, normalised as the index does) that starts with a query word's stem (or
    the word itself for stop words only), so "run" marks "running" and the last word works as a
    prefix. Maps each distinct run of the texts to whether it is marked, looked up once per
    query (a CJK run never is): a pasted paragraph of 100 words compiled as one regex of
    alternatives took 1 ms, and its ten hits 2 ms to match (issue 32)."""

    def __init__(self, query: str) -> None:
        super().__init__()
        words = [r for r in runs(query) if not is_cjk(r)]
        content = [w for w in words if w not in STOP] or words
        self.stems = frozenset((stem(w) if w not in STOP else w) for w in content)
        self.cjk = [r for r in runs(query) if is_cjk(r)]
        self._prefixes = [slice(0, n) for n in sorted({len(s) for s in self.stems})]

    def __missing__(self, run: str) -> bool:
        norm = run.lower() if run.isascii() else normalize(run)
        found = self[run] = not is_cjk(run) and not self.stems.isdisjoint(
            map(norm.__getitem__, self._prefixes)
        )
        return found


@lru_cache(maxsize=64)
def _words(query: str) -> _Words:
    return _Words(query)


def _matches(text: str, query: str) -> list[tuple[int, int]]:
    """(start, end) of query words (same word, same stem, or the last word as a prefix) and of
    query CJK runs (or their bigrams) in `text`, in either Chinese script (folding keeps
    offsets: one character for one)."""
    spans: list[tuple[int, int]] = []
    words = _words(query)
    if words.stems:
        spans.extend(m.span() for m in run_matches(text) if words[m.group()])
    folded = fold_chinese(text) if words.cjk else text
    for r in words.cjk:
        pieces = [r] if r in folded else ([r[i : i + 2] for i in range(len(r) - 1)] or [r])
        for piece in pieces:
            start = folded.find(piece)
            while start >= 0:
                spans.append((start, start + len(piece)))
                start = folded.find(piece, start + len(piece))
    return _merge(sorted(spans))


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def make_snippet(text: str, query: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A window of about WIDTH characters around the densest match, one line, sanitised."""
    flat = sanitize(text, single_line=True)
    spans = _matches(flat, query)
    if len(flat) <= WIDTH:
        start, end = 0, len(flat)
    else:
        center = _densest(spans)
        start = max(0, center - BEFORE)
        end = min(len(flat), start + WIDTH)
        start = max(0, end - WIDTH)
        if start > 0:
            space = flat.find(" ", start, start + 20)
            start = space + 1 if space >= 0 else start
        if end < len(flat):
            space = flat.rfind(" ", end - 20, end)
            end = space if space > start else end
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    shift = len(prefix) - start
    inside = tuple((max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end)
    return prefix + flat[start:end] + suffix, inside


def _densest(spans: list[tuple[int, int]]) -> int:
    """Start of the span with the most other spans within WIDTH characters after it (the first
    such; `spans` are sorted and apart, so their starts ascend: one pass, not one per span)."""
    if not spans:
        return 0
    best, best_n = spans[0][0], 0
    j = 0
    for i, (s, _) in enumerate(spans):
        j = max(j, i)
        while j < len(spans) and spans[j][0] - s < WIDTH - BEFORE:
            j += 1
        if j - i > best_n:
            best, best_n = s, j - i
    return best
