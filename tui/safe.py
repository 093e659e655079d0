"""The one path untrusted text takes to the screen.

Article text, titles, quotes, questions, answers, tags and model output pass through
`core.text.sanitize` (control characters and escape sequences out) and become a `Content`
(Textual widgets) or a `rich.text.Text` (DataTable cells): never a plain `str`, which Textual 8
parses as markup (`[@click=app.quit]` in an article would quit the app).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.style import Style

from core.text import sanitize

QUOTE_STYLE = "bold reverse"


def content(text: object, *, single_line: bool = False, style: str = "") -> Content:
    """Untrusted text as literal Content (never parsed as markup)."""
    return (
        Content.styled(sanitize(str(text), single_line=single_line), style)
        if style
        else Content(sanitize(str(text), single_line=single_line))
    )


def cell(text: object, style: str = "") -> Text:
    """Untrusted text as a rich Text for DataTable / Tree cells."""
    return Text(sanitize(str(text), single_line=True), style=style, no_wrap=True, overflow="ellipsis")


def join(parts: Iterable[Content | str], separator: str = "") -> Content:
    """Join pieces; plain `str` pieces are *our own* labels and are also taken literally."""
    return Content(separator).join(p if isinstance(p, Content) else Content(p) for p in parts)


def label(text: str, style: str = "bold") -> Content:
    """Our own fixed label text, styled (no markup parsing either)."""
    return Content.styled(text, style)


def notify(
    app: App[Any], message: object, *, severity: str = "information", timeout: float | None = None
) -> None:
    """A notice whose text may contain untrusted parts: sanitised, markup off."""
    app.notify(
        sanitize(str(message), single_line=True),
        severity=severity,  # type: ignore[arg-type]
        timeout=timeout,
        markup=False,
    )


def find_quote(text: str, quote: str) -> tuple[int, int] | None:
    """Where `quote` sits in `text`, or None: the screen's side of the one span finder
    (core.text.spans), so what the validator accepts is what gets highlighted."""
    # imported on first use: compiling its CJK patterns is ~35M instructions, and this module
    # is on the way to the first frame
    from core.text.spans import find_span

    return find_span(quote, text)


# How a paragraph's spans (emphasis, links, ... : core.domain.InlineSpan kinds) look. Only our
# own style names: a link's target is data and never becomes a style, a link or markup.
SPAN_STYLES = {
    "emphasis": "italic",
    "strong": "bold",
    "code": "$accent",
    "link": "underline",
    "image": "italic $text-muted",
    "strike": "strike",
}


def styled(text: str, spans: Iterable[tuple[int, int, str | Style]]) -> Content:
    """Untrusted text as literal Content, with our own styles over (start, end) offsets of the
    raw text. Sanitising drops characters (controls) and widens tabs, so the offsets are moved
    with the text: each piece between span edges is sanitised alone (sanitize works character
    by character, so the pieces add up to the whole)."""
    wanted = [(a, b, style) for a, b, style in spans if 0 <= a < b <= len(text) and style]
    if not wanted:
        return Content(sanitize(text))
    edges = sorted({0, len(text), *(a for a, _, _ in wanted), *(b for _, b, _ in wanted)})
    moved: dict[int, int] = {0: 0}
    pieces: list[str] = []
    length = 0
    for a, b in pairwise(edges):
        piece = sanitize(text[a:b])
        pieces.append(piece)
        length += len(piece)
        moved[b] = length
    result = Content("".join(pieces))
    for a, b, style in wanted:
        if moved[b] > moved[a]:
            result = result.stylize(style, moved[a], moved[b])
    return result


def highlight_quotes(text: str, quotes: Sequence[str], style: str = QUOTE_STYLE) -> Content:
    """Paragraph text with each quote's exact span styled (text is sanitised first)."""
    clean = sanitize(text)
    result = Content(clean)
    for quote in quotes:
        span = find_quote(clean, sanitize(quote))
        if span is not None:
            result = result.stylize(style, span[0], span[1])
    return result


__all__ = [
    "QUOTE_STYLE",
    "SPAN_STYLES",
    "cell",
    "content",
    "find_quote",
    "highlight_quotes",
    "join",
    "label",
    "notify",
    "styled",
]
