"""Page geometry -> reading order, lines and paragraphs (pure: no PDF library here).

Input per page: text runs with their boxes (PDF points, y up) and font sizes. Steps:

1. Running furniture out: the top and bottom rows of each page whose text, digits aside,
   repeats on at least half the pages (running headers, footers), and rows that are only a
   page number ("3", "- 3 -", "Page 3 of 9", "iv"). A repeated row set HEADING_RATIO times
   larger than the repeats usually are stays: a title page's title, which the later pages
   repeat small as their running header.
2. Reading order by recursive XY-cut: a region is cut at a horizontal band of empty space
   taller than a line, else at a vertical band of empty space (a column gutter) wider than
   GUTTER_EMS font heights; top before bottom, left before right. Two- and three-column
   pages, full-width titles above columns and figures between them read in order.
3. Lines: runs of one leaf that share a baseline, left to right.
4. Paragraphs: a new one after a vertical gap well above the leaf's usual line pitch, after a
   short line ending a sentence, or where the font size changes (headings: lines at least
   HEADING_RATIO times the page's body size; consecutive ones form one heading).
5. Line ends: a hyphen pdfium marks at a line end (U+0002/U+FFFE) or a plain "-" is joined
   ("Ebbing-" + "haus" -> "Ebbinghaus") unless the hyphenated form occurs elsewhere in the
   document and the joined one does not ("well-" + "known"); other line breaks become a space,
   or nothing between CJK characters.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import median

from core.ingest.inline import is_cjk

GUTTER_EMS = 1.0  # a vertical gap at least this many body font heights wide splits columns
HEADING_RATIO = 1.2
FURNITURE_SHARE = 0.5
_HYPHENS = ("\x02", "\ufffe", "-", "\u00ad")
_PAGE_NUMBER = re.compile(
    r"^[\W_]*(?:(?:page|p\.|seite|página|第)\s*)?(\d{1,5}|[ivxlcdm]{1,7})(?:\s*(?:of|/|页|頁)\s*\d{1,5})?[\W_]*$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_END_OF_SENTENCE = tuple('.!?:;。！？；：」』”")')
_NO_SPACE_BEFORE = (" ", ".", ",", ";", ":", "!", "?", ")", "]", "\u2019", "\u201d")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class Run:
    """A run of text on a page: its box (x0, y0 bottom, x1, y1 top), font size and baseline.

    The box hugs the glyphs (a line with a "y" reaches lower than one without), so the spacing
    of lines is measured between baselines; `base` is the box's bottom when none is known."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    base: float | None = None
    soft_end: bool = False  # its trailing space was made by the PDF reader, not in the file


@dataclass
class Line:
    runs: list[Run]
    x0: float = 0.0
    x1: float = 0.0
    top: float = 0.0
    bottom: float = 0.0
    baseline: float = 0.0
    size: float = 0.0
    text: str = ""

    def __post_init__(self) -> None:
        self.runs.sort(key=lambda r: r.x0)
        self.x0 = min(r.x0 for r in self.runs)
        self.x1 = max(r.x1 for r in self.runs)
        self.top = max(r.y1 for r in self.runs)
        self.bottom = min(r.y0 for r in self.runs)
        self.baseline = median(r.y0 if r.base is None else r.base for r in self.runs)
        self.size = max(r.size for r in self.runs)
        parts: list[str] = []
        prev: Run | None = None
        for r in self.runs:
            if prev is not None and prev.soft_end and parts and _cjk_join(parts[-1].rstrip(), r.text):
                parts[-1] = parts[-1].rstrip()  # "1885 年": a gap CJK typesetting adds, not a space
            if (
                prev is not None
                and parts
                and not parts[-1].endswith(" ")
                and not r.text.startswith(_NO_SPACE_BEFORE)
                and r.x0 - prev.x1 > 0.15 * max(prev.size, 1)
                and not _cjk_join(
                    parts[-1], r.text
                )  # CJK spacing is typesetting; a real space is a character
            ):
                parts.append(" ")
            parts.append(r.text)
            prev = r
        self.text = " ".join("".join(parts).split())


def _cjk_join(before: str, after: str) -> bool:
    """Text either side of a gap where one side is CJK (a space there is typesetting)."""
    return bool(before and after) and (is_cjk(before[-1]) or is_cjk(after[0]))


@dataclass
class Paragraph:
    lines: list[Line] = field(default_factory=list)
    page: int = 1
    heading: bool = False


def remove_furniture(pages: list[list[Run]]) -> list[list[Run]]:
    """Drop running headers, footers and page numbers (see the module docstring)."""
    edges: list[list[tuple[str, list[Run]]]] = []
    for runs in pages:
        rows = _rows(runs)
        picked = rows[:2] + rows[-2:] if len(rows) > 4 else rows
        edges.append(
            [(_DIGITS.sub("#", " ".join(r.text for r in row).strip().casefold()), row) for row in picked]
        )
    counts = Counter(key for page in edges for key in {k for k, _ in page})
    sizes: dict[str, list[float]] = {}
    for page_edges in edges:
        for key, row in page_edges:
            sizes.setdefault(key, []).append(max(r.size for r in row))
    threshold = max(2, FURNITURE_SHARE * len(pages))
    out = []
    for runs, page_edges in zip(pages, edges, strict=True):
        drop: set[int] = set()
        for key, row in page_edges:
            text = " ".join(r.text for r in row).strip()
            # a title page's title set large, which later pages repeat small as their header
            usual = max(r.size for r in row) < median(sizes[key]) * HEADING_RATIO
            if (len(pages) > 1 and counts[key] >= threshold and usual) or _PAGE_NUMBER.match(text):
                drop.update(id(r) for r in row)
        out.append([r for r in runs if id(r) not in drop])
    return out


def _rows(runs: list[Run]) -> list[list[Run]]:
    """Runs grouped into full-width rows by vertical overlap, top first."""
    rows: list[list[Run]] = []
    for r in sorted(runs, key=lambda r: -r.y1):
        if rows:
            last = rows[-1]
            low = min(x.y0 for x in last)
            if r.y1 > low + 0.4 * (r.y1 - r.y0):
                last.append(r)
                continue
        rows.append([r])
    return rows


def reading_order(runs: list[Run], body_size: float) -> list[list[Run]]:
    """Leaves of the XY-cut (each one column block), in reading order."""
    out: list[list[Run]] = []
    stack = [runs]
    while stack:
        region = stack.pop()
        if not region:
            continue
        parts = _cut(region, body_size)
        if parts is None:
            out.append(region)
        else:
            stack.extend(reversed(parts))
    return out


def _cut(region: list[Run], body_size: float) -> list[list[Run]] | None:
    if len(region) < 2:
        return None
    ys = _gaps([(r.y0, r.y1) for r in region], reverse=True)
    big = [g for g in ys if g[1] - g[0] >= body_size * 1.2]
    if big:
        lo, hi = max(big, key=lambda g: g[1] - g[0])
        return [[r for r in region if r.y0 >= hi - 0.01], [r for r in region if r.y0 < hi - 0.01]]
    xs = _gaps([(r.x0, r.x1) for r in region], reverse=False)
    wide = [g for g in xs if g[1] - g[0] >= body_size * GUTTER_EMS]
    if wide:
        lo, hi = max(wide, key=lambda g: g[1] - g[0])
        left = [r for r in region if r.x1 <= lo + 0.01]
        right = [r for r in region if r.x1 > lo + 0.01]
        if left and right:
            return [left, right]
    return None


def _gaps(spans: list[tuple[float, float]], *, reverse: bool) -> list[tuple[float, float]]:
    """Empty intervals between the union of `spans` (as (low, high) pairs)."""
    merged: list[list[float]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(a[1], b[0]) for a, b in pairwise(merged)]


def lines_of(leaf: list[Run]) -> list[Line]:
    return [Line(row) for row in _rows(leaf)]


def paragraphs_of(lines: list[Line], body_size: float, page: int) -> list[Paragraph]:
    if not lines:
        return []
    pitches = [a.baseline - b.baseline for a, b in pairwise(lines) if a.baseline > b.baseline]
    pitch = median(pitches) if pitches else body_size * 1.2
    right = max(line.x1 for line in lines)
    out: list[Paragraph] = []
    for line in lines:
        heading = line.size >= body_size * HEADING_RATIO
        prev = out[-1].lines[-1] if out else None
        new = (
            prev is None
            or heading != out[-1].heading
            or abs(line.size - prev.size) > 0.15 * body_size
            or prev.baseline - line.baseline > pitch * 1.35
            or (prev.text.endswith(_END_OF_SENTENCE) and prev.x1 < right - 2 * body_size)
        )
        if new:
            out.append(Paragraph([line], page, heading))
        else:
            out[-1].lines.append(line)
    return out


def join_lines(lines: list[str], vocabulary: set[str]) -> str:
    """Lines of one paragraph as one text (hyphenation joined, see the module docstring)."""
    text = ""
    for line in lines:
        if not text:
            text = line
            continue
        if text.endswith(_HYPHENS) and line[:1].isalpha():
            head = text.rstrip("".join(_HYPHENS))
            a = _WORD.findall(head)[-1:] or [""]
            b = _WORD.findall(line)[:1] or [""]
            keep = f"{a[0]}-{b[0]}".casefold() in vocabulary and f"{a[0]}{b[0]}".casefold() not in vocabulary
            text = head + ("-" if keep else "") + line
        elif is_cjk(text[-1:]) and is_cjk(line[:1]):
            text += line
        else:
            text += " " + line
    return text.replace("\x02", "-").replace("\ufffe", "-")


def vocabulary(texts: list[str]) -> set[str]:
    """Every word form (hyphenated ones too) of the lines, folded, for join_lines."""
    words: set[str] = set()
    for t in texts:
        words.update(w.casefold() for w in _WORD.findall(t.rstrip("".join(_HYPHENS))))
    return words


def ends_open(text: str) -> bool:
    """A paragraph cut by a column or page end: no sentence end (a continuation may follow)."""
    return bool(text) and not text.rstrip().endswith(_END_OF_SENTENCE)


def body_font_size(pages: list[list[Run]]) -> float:
    """The font size most text is set in (weighted by characters)."""
    sizes: Counter[float] = Counter()
    for runs in pages:
        for r in runs:
            sizes[round(r.size, 1)] += len(r.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0
