"""HTML -> blocks of reader text (the standard library's HTMLParser; tolerant of broken markup).

Used for the main content of web pages (after trafilatura), EPUB chapters, reStructuredText
(through docutils' HTML writer) and HTML inside Markdown. Block elements end a paragraph;
headings become heading blocks and the section path; a list, quote or table becomes one block
like in Markdown (items "• " one a line, rows with cells between " | "); <pre> keeps its
whitespace. Inline elements become spans: em/i/cite -> emphasis, strong/b -> strong,
code/kbd/samp -> code, a[href] -> link, img[alt] -> image (its alt text). Scripts, styles,
navigation, forms, hidden elements and EPUB page-break markers are not text a reader reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

from core.ingest.blocks import Block, Sections, one_line
from core.ingest.html_parse import without_prolog
from core.ingest.html_tags import (
    BLOCK,
    BR,
    CONTAINERS,
    END,
    FAST,
    FLOW,
    HEADINGS,
    INLINE,
    LI,
    SKIP,
    VOID,
)
from core.ingest.inline import TextBuilder


class _Converter(HTMLParser):
    def __init__(
        self, sections: Sections, *, leading_h1_is_title: bool, class_styles: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(convert_charrefs=True)
        self._class_styles = class_styles or {}  # CSS class -> span kind (an EPUB's stylesheet)
        self.blocks: list[Block] = []
        self.title: str | None = None  # the leading <h1>, when it is taken as the title
        self.page_title = ""  # the <title> element
        self._sections = sections
        self._want_title = leading_h1_is_title
        self._b = TextBuilder()
        self._heading = 0
        self._container: list[str] = []  # open container tags, outermost first
        self._lists: list[list[int]] = []  # [ordered, next number] per open list
        self._cells = 0
        self._pre = 0
        self._skip: list[str] = []
        self._in_title = False
        self._spans: list[tuple[str, int]] = []
        self._marker_end = -1  # where the last list bullet ended: a <p> right after it is no new line

    # --- parser events --------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.start(tag, dict(attrs))

    def start(self, tag: str, a: Mapping[str, str | None]) -> None:
        """An element starts (`a`: its attributes, a dict or an lxml element's attrib)."""
        if tag == "title":  # read even inside <head> (skipped otherwise): the page's title
            self._in_title = True
            return
        if self._skip:
            if tag == self._skip[-1] and tag not in VOID:
                self._skip.append(tag)
            return
        if tag in SKIP or (
            a and ("hidden" in a or "pagebreak" in (a.get("epub:type") or a.get("type") or ""))
        ):
            if tag not in VOID:
                self._skip.append(tag)
            return
        if tag == "span":
            self._span(a)
        elif tag in INLINE:
            href = a.get("href") if tag == "a" else None
            if tag != "a" or href:
                self._spans.append((tag, self._b.open(INLINE[tag], href)))
        elif tag == "br":
            self._b.hard_break()
        elif tag == "img":
            alt, src = a.get("alt") or "", a.get("src") or ""
            if alt and alt not in (src, src.rsplit("/", 1)[-1]):  # Sphinx puts the path when none
                self._image(alt)
        elif tag == "pre":
            self._boundary()
            self._pre += 1
        elif tag in HEADINGS and not self._container:
            self._flush()
            self._heading = HEADINGS[tag]
        elif tag in CONTAINERS:
            self._open_container(tag, a)
        elif tag == "li" and self._lists:
            self._item()
        elif tag == "tr":
            self._line()
            self._cells = 0
        elif tag in ("td", "th"):
            if self._cells:
                self._b.verbatim(" | ")
            self._cells += 1
        elif tag in FLOW or tag in HEADINGS or tag == "li":
            self._boundary()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
            return
        if self._skip:
            if tag == self._skip[-1]:
                self._skip.pop()
            return
        if tag in INLINE or tag == "span":
            for i in range(len(self._spans) - 1, -1, -1):
                if self._spans[i][0] == tag:
                    if self._spans[i][1] >= 0:
                        self._b.close(self._spans[i][1])
                    del self._spans[i:]
                    break
        elif tag == "pre":
            self._boundary()  # while still inside: the block is code
            self._pre = max(0, self._pre - 1)
        elif tag in HEADINGS and self._heading:
            self._flush()
        elif tag in CONTAINERS and tag in self._container:
            outer = CONTAINERS[self._container[0]]
            while self._container:
                closed = self._container.pop()
                if closed in ("ul", "ol") and self._lists:
                    self._lists.pop()
                if closed == tag:
                    break
            if not self._container:
                self._flush(outer)
        elif tag in FLOW or tag in HEADINGS:
            self._boundary()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.page_title += data
        elif self._skip:
            return
        elif self._pre:
            self._b.verbatim(data)
        else:
            self._b.text(data)

    def _span(self, a: Mapping[str, str | None]) -> None:
        classes = (a.get("class") or "").split()
        styled = next((self._class_styles[c] for c in classes if c in self._class_styles), None)
        if "literal" in classes:
            self._spans.append(("span", self._b.open("code")))  # docutils' ``code``
        elif styled is not None:
            self._spans.append(("span", self._b.open(styled)))  # <span class="bold">
        else:
            self._spans.append(("span", -1))  # a plain span: its end must not close a styled one

    # --- blocks ---------------------------------------------------------------------------

    def _open_container(self, tag: str, attrs: Mapping[str, str | None]) -> None:
        if not self._container:
            self._flush()
        else:
            self._line()
        self._container.append(tag)
        if tag in ("ul", "ol"):
            start = attrs.get("start") or "1"
            self._lists.append([tag == "ol", int(start) if start.isdigit() else 1])

    def _image(self, alt: str) -> None:
        alt = one_line(alt)
        if alt:
            self._b.space()
            handle = self._b.open("image")
            self._b.text(alt)
            self._b.close(handle)
            self._b.space()

    def _item(self) -> None:
        """A list item starts: a new line with its bullet or number."""
        self._line()
        ordered, number = self._lists[-1]
        depth = "  " * (len(self._lists) - 1)
        self._b.verbatim(f"{depth}{number}. " if ordered else f"{depth}• ")
        self._marker_end = self._b.length
        self._lists[-1][1] += 1

    def _line(self) -> None:
        """A new line inside the open block (list item, table row, quoted paragraph)."""
        if self._b.length != self._marker_end:
            self._b.hard_break()

    def _boundary(self) -> None:
        """A block element starts or ends: a new paragraph, or a new line inside a container."""
        if self._container:
            self._line()
        else:
            self._flush()

    def _flush(self, kind: str = "paragraph") -> None:
        if self._pre and not self._container:
            kind = "code"
        self._spans.clear()
        level, self._heading = self._heading, 0
        self._marker_end = -1
        if not self._b.length:  # no text: the builder serves the next block
            self._b.restart()
            return
        text, spans = self._b.finish(verbatim=kind == "code")  # and the builder is empty again
        if not text:
            return
        if kind == "code":
            spans = ()  # the whole block is code already
        if level:
            # a heading that is one link to its own anchor (a "¶" permalink) is just a heading
            spans = tuple(s for s in spans if not (s.kind == "link" and s.end - s.start == len(text)))
            title = one_line(text)
            if self._want_title and level == 1 and not self.blocks and self.title is None:
                self.title = title
                return
            self.blocks.append(Block("heading", text, spans, self._sections.heading(level, title), level))
            return
        self.blocks.append(Block(kind, text, spans, self._sections.locator))

    def feed_tree(self, element: Any) -> None:
        """Feed a parsed lxml tree to the converter as parser events (no second parse; iterative,
        so no depth of nesting can exhaust the stack). What is not read is not visited: a skipped
        element's subtree (script, hidden, ...; unless a <title> is in it) and a <pre>'s elements.

        <br>, <li> and block elements without attributes (2,632 of libxml2's 3,682
        elements) are handled here, without `start`'s and `handle_endtag`'s tests for every
        other tag."""
        from lxml import etree

        b = self._b  # one builder for every block (_flush leaves it empty)
        # tag -> its local name, lower case ("" for comments and PIs), whether its end is read,
        # and BR / LI / BLOCK for the ones handled here (0 else)
        names: dict[Any, tuple[str, bool, int]] = {}
        walker = etree.iterwalk(element, events=("start", "end"))
        for event, el in walker:
            tag = el.tag
            known = names.get(tag)
            if known is None:
                local = tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""
                known = names[tag] = (local, local in END, FAST.get(local, 0))
            name, read_end, fast = known
            if event == "start":
                if not name:
                    continue
                if fast and not self._skip and not len(el.attrib):
                    if fast == BR:
                        b.hard_break()
                    elif fast == LI and self._lists:  # an item of an open list
                        self._item()
                    else:  # a block element (an <li> outside lists too)
                        self._boundary()
                    if text := el.text:
                        if self._in_title or self._pre:
                            self.handle_data(text)
                        else:
                            b.text(text)
                    continue
                if self._start_element(name, el):
                    walker.skip_subtree()
                continue
            if fast == BLOCK and read_end and not self._skip:  # (not <hr>: void, no end read)
                self._boundary()  # handle_endtag's last case, without its tests
            elif read_end or (self._skip and name and name not in VOID):
                self.handle_endtag(name)
            if (tail := el.tail) and el is not element:
                if self._in_title or self._skip or self._pre:
                    self.handle_data(tail)
                else:
                    b.text(tail)

    def _start_element(self, name: str, el: Any) -> bool:
        """feed_tree's start of any element but the ones it handles itself: whether the walk
        skips the element's subtree (read already, or not read)."""
        skipping = bool(self._skip)
        self.start(name, el.attrib)
        if self._skip:
            if not skipping and next(el.iter("{*}title"), None) is None:  # HTML: lower case
                return True  # its text would all be dropped
            if text := el.text:
                self.handle_data(text)  # a <title> (the page's) may be inside
        elif name == "pre":
            # code is read as its text: the highlighter's thousands of <span>s need no visit (a
            # Sphinx page's code was 60% of its elements)
            self.handle_data("".join(el.itertext()))
            return True
        elif text := el.text:  # each .text or .tail is a new string from libxml2: once
            if self._in_title or self._pre:
                self.handle_data(text)
            else:  # the common case, without handle_data's call (a call per text node)
                self._b.text(text)
        return False

    def close(self) -> None:
        super().close()
        outer = CONTAINERS[self._container[0]] if self._container else "paragraph"
        self._container.clear()
        self._flush(outer)


def convert_tree(
    element: Any,
    *,
    sections: Sections | None = None,
    leading_h1_is_title: bool = False,
    class_styles: Mapping[str, str] | None = None,
) -> _Converter:
    """`convert_html` for an element lxml has already parsed (web pages, EPUB chapters)."""
    converter = _Converter(
        sections or Sections(), leading_h1_is_title=leading_h1_is_title, class_styles=class_styles
    )
    converter.feed_tree(element)
    converter.close()
    return converter


def html_to_blocks(
    html: str, *, sections: Sections | None = None, leading_h1_is_title: bool = False
) -> list[Block]:
    """Blocks of an HTML document or fragment (see the module docstring)."""
    return convert_html(html, sections=sections, leading_h1_is_title=leading_h1_is_title).blocks


def convert_html(
    html: str,
    *,
    sections: Sections | None = None,
    leading_h1_is_title: bool = False,
    class_styles: Mapping[str, str] | None = None,
) -> _Converter:
    """The converter after reading `html`: .blocks, .title (a leading h1), .page_title.
    `class_styles`: span classes that mean emphasis or strong (from a stylesheet)."""
    converter = _Converter(
        sections or Sections(), leading_h1_is_title=leading_h1_is_title, class_styles=class_styles
    )
    converter.feed(without_prolog(html))
    converter.close()
    return converter
