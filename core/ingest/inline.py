"""Reader text being built: what a reader sees, with its emphasis, links and code as spans.

Every reader that renders markup (Markdown, HTML, EPUB, RST, DOCX) appends to a `TextBuilder`:
text runs, soft and hard line breaks, and spans opened and closed around runs. Whitespace
follows HTML's rule (a run of spaces and line breaks shows as one space), except that a line
break between two CJK characters shows as nothing, the rule plain text already follows
(plaintext.fold_lines). Verbatim text (code blocks, list bullets) is appended as it is.

The result is the paragraph's text and its spans as offsets into that text, so a quote is an
exact substring of what the reader sees and the screen can style spans without markup.
"""

from __future__ import annotations

import re

from core.domain import InlineSpan
from core.ingest.plaintext import CJK_CHAR

_CJK_BREAK = re.compile(rf"(?<={CJK_CHAR.pattern})[^\S\n]*\n\s*(?={CJK_CHAR.pattern})")
_NO_SPACE, _SPACE, _BREAK = 0, 1, 2  # what a collapsed whitespace run stands for


def is_cjk(ch: str) -> bool:
    return bool(ch) and ch > "\u3000" and CJK_CHAR.match(ch) is not None


# every CJK character is above U+3000, whose UTF-8 starts with byte E3: a text whose UTF-8
# holds no byte from E3 up has none (the continuation bytes are 80-BF)
_BELOW_CJK_BYTES = bytes(range(0xE3))


def _above_cjk_start(text: str) -> bool:
    """Whether `text` may hold a CJK character (one at U+3000 or above): two C passes over its
    UTF-8, where _CJK_BREAK's lookbehind tried every position (4M of the 123M instructions
    of reading libxml2's xml.html went there, for its names with ö and its non-breaking spaces)."""
    return bool(text.encode("utf-8", "surrogatepass").translate(None, _BELOW_CJK_BYTES))


class TextBuilder:
    """Text and spans of one block. `finish()` trims the ends and returns both."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._parts: list[str] = []
        self.length = 0  # characters written so far (the readers read it; only the builder sets it)
        self._last = ""  # the last character written ("" at the start of the block)
        self._pending = _NO_SPACE
        self._open: list[tuple[int, str, str | None]] = []
        self._spans: list[InlineSpan] = []

    # --- appending ------------------------------------------------------------------------

    def text(self, run: str) -> None:
        """Text whose whitespace collapses (HTML and Markdown inline text).

        Called for every text node of a page: written for the common cases (no whitespace at
        the ends; none inside but single spaces), which need no strip and no folding."""
        if not run:
            return
        if run.isspace():  # whitespace alone (a page's line breaks between elements: 2 runs in 5)
            pending = _BREAK if "\n" in run else _SPACE
            if pending > self._pending:
                self._pending = pending
            return
        lead = run[0].isspace()
        trail = run[-1].isspace()
        body = run.strip() if lead or trail else run
        if lead:  # the characters before the first non-space one
            pending = _BREAK if "\n" in run[: run.index(body[0])] else _SPACE
            if pending > self._pending:
                self._pending = pending
        # inside the run at once (a word at a time took 80% of reading a 1 MB book): a line
        # break between two CJK characters is nothing, any other whitespace one space
        if "\n" in body and not body.isascii() and _above_cjk_start(body):
            body = _CJK_BREAK.sub("", body)
        # any whitespace but single spaces becomes one space: str.split's whitespace is \s, at 5x
        # the regex's speed; single line breaks alone (a page's source lines) are replaced and
        # the result checked, at 4x the split's
        if "  " in body:
            body = " ".join(body.split())
        elif not body.isprintable():
            lines = body.replace("\n", " ")
            body = lines if "  " not in lines and lines.isprintable() else " ".join(body.split())
        pending = self._pending  # _write, inlined: a call per text node of a page
        if pending:
            self._pending = _NO_SPACE
            if (
                self.length
                and self._last not in " \n"
                and (pending == _SPACE or not (is_cjk(self._last) and is_cjk(body[0])))
            ):
                body = " " + body
        self._parts.append(body)
        self.length += len(body)
        self._last = body[-1]
        if trail:  # the characters after the last non-space one
            self._pending = _BREAK if "\n" in run[run.rindex(body[-1]) + 1 :] else _SPACE

    def soft_break(self) -> None:
        """A line break inside a paragraph: shown as a space, or nothing between CJK characters."""
        self._pending = _BREAK

    def hard_break(self) -> None:
        """A forced line break (<br>, two trailing spaces in Markdown)."""
        self._pending = _NO_SPACE
        if self.length and self._last != "\n":
            self._raw("\n")

    def verbatim(self, run: str) -> None:
        """Text kept exactly (code blocks, bullets, cell separators): no collapsing."""
        self._pending = _NO_SPACE
        if run:
            self._raw(run)

    def restart(self) -> None:
        """Start the next block in this builder, when this one got no text (what is pending and
        the spans still open are dropped): cheaper than a new builder, and half of a web page's
        blocks end with none (whitespace between two block elements)."""
        self._pending = _NO_SPACE
        self._open.clear()

    def space(self) -> None:
        """A collapsible space (between table cells, after an image, ...)."""
        self._pending = max(self._pending, _SPACE)

    def open(self, kind: str, href: str | None = None) -> int:
        """Start a span here; returns a handle for `close`."""
        self._open.append((self.length, kind, href))
        return len(self._open) - 1

    def close(self, handle: int) -> None:
        """End the span `open` returned (and any opened after it that are still open)."""
        while len(self._open) > handle:
            start, kind, href = self._open.pop()
            if self.length > start:
                self._spans.append(InlineSpan(start, self.length, kind, href))

    # --- result ---------------------------------------------------------------------------

    def finish(self, *, verbatim: bool = False) -> tuple[str, tuple[InlineSpan, ...]]:
        """The block's text (ends trimmed) and its spans, trimmed to the text they cover.

        `verbatim` (code): only blank lines and trailing spaces are trimmed, indentation stays.
        The builder is empty again after it (html_blocks writes every block of a page with one)."""
        self.close(0)
        raw = "".join(self._parts)
        found = self._spans
        self._reset()
        if verbatim:
            head = raw.lstrip("\n")
            text = head.rstrip()
            lead = len(raw) - len(head)
        else:
            text = raw.strip()
            lead = len(raw) - len(raw.lstrip())
        if not text or text.isspace():
            return "", ()
        if not found:
            return text, ()
        spans: list[InlineSpan] = []
        for s in sorted(found, key=_span_order):
            start, end = max(0, s.start - lead), min(len(text), s.end - lead)
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if end == s.end and start == s.start:
                spans.append(s)  # nothing trimmed (most spans): no new frozen dataclass, ~0.6 µs
            elif end > start:
                spans.append(InlineSpan(start, end, s.kind, s.href))
        return text, tuple(spans)

    # --- internals ------------------------------------------------------------------------

    def _raw(self, run: str) -> None:
        self._parts.append(run)
        self.length += len(run)
        self._last = run[-1]


def _span_order(s: InlineSpan) -> tuple[int, int]:
    return s.start, -s.end


def shift_spans(spans: tuple[InlineSpan, ...], offset: int) -> tuple[InlineSpan, ...]:
    """The same spans `offset` characters further on (when texts are joined)."""
    return tuple(InlineSpan(s.start + offset, s.end + offset, s.kind, s.href) for s in spans)


def join_texts(
    pieces: list[tuple[str, tuple[InlineSpan, ...]]], separator: str = "\n"
) -> tuple[str, tuple[InlineSpan, ...]]:
    """Join rendered pieces with `separator`, moving each piece's spans along."""
    texts: list[str] = []
    spans: list[InlineSpan] = []
    offset = 0
    for text, piece_spans in pieces:
        if not text:
            continue
        if texts:
            offset += len(separator)
        texts.append(text)
        spans.extend(shift_spans(piece_spans, offset))
        offset += len(text)
    return separator.join(texts), tuple(spans)
