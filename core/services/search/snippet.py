"""Snippets: a one-line window of a paragraph or unit around the best match, with the offsets
of the matched words (for highlighting without markup). Text is sanitised here."""

from __future__ import annotations

import re
from functools import lru_cache

from core.text import sanitize
from core.text.analysis import CJK_CHARS, STOP, is_cjk, runs, stem
from core.text.chinese import fold_chinese

BEFORE, WIDTH = 60, 200
_CJK = re.compile(rf"[{CJK_CHARS}]")


@lru_cache(maxsize=4096)
def _word_pattern(query: str) -> re.Pattern[str] | None:
    """English query words as one case-insensitive pattern: each word's stem (or the word
    itself for stop words only) followed by any letters, so "run" marks "running" and the
    last word works as a prefix."""
    words = [r for r in runs(query) if not is_cjk(r)]
    content = [w for w in words if w not in STOP] or words
    stems = sorted({(stem(w) if w not in STOP else w) for w in content}, key=len, reverse=True)
    if not stems:
        return None
    return re.compile(r"(?<![^\W_])(?:" + "|".join(re.escape(s) for s in stems) + r")[^\W_]*", re.IGNORECASE)


def _matches(text: str, query: str) -> list[tuple[int, int]]:
    """(start, end) of query words (same word, same stem, or the last word as a prefix) and of
    query CJK runs (or their bigrams) in `text`, in either Chinese script (folding keeps
    offsets: one character for one)."""
    spans: list[tuple[int, int]] = []
    pattern = _word_pattern(query)
    if pattern is not None:
        spans.extend(m.span() for m in pattern.finditer(text) if not _CJK.match(m.group()))
    folded = fold_chinese(text)
    for r in runs(query):
        if not is_cjk(r):
            continue
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
    such; `spans` are sorted and apart, so their starts ascend: one pass, where counting from
    each span cost a pasted paragraph's ten hits, every word of them a span, 0.4 ms; issue 32)."""
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
