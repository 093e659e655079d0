"""Web pages (.html, .htm, saved pages): the main content only, with its title and headings.

The main content is found on the page's lxml tree, then html_blocks reads it (the reader EPUB
chapters and RST use too):

1. The page's own landmark, when it marks one: <main>, role="main", or its only <article>.
   Documentation generators (Sphinx, mdBook, MkDocs) and most current sites do.
2. Otherwise its <body> (a document a word processor saved as HTML is all body), without the
   blocks made mostly of links: menus, link lists, tag clouds (core/ingest/boilerplate.py).
In both, what is never content goes first: nav, aside, footer, forms, buttons, ARIA
navigation / search / complementary / contentinfo regions, permalinks, blocks named share,
social, comments, related, newsletter, ads, cookie banners, sidebars, menus, breadcrumbs; and
a site banner heading standing above the page's own title (its <title>) goes after.
3. trafilatura (maintained, Apache-2.0) only when that leaves almost nothing of a page that has
   text. Its content XML (head, p, hi, ref, list, quote, code, table, graphic) is renamed to the
   HTML it stands for.

Why not trafilatura first: it dropped headings (every heading of the Rust book's <main>; all
of libxml2's), kept one part (29% of a Sphinx page), and on libxml2's news page returned only
its menus; its fast pass cost 25-110 ms a page and its import half a second. The cleaning here
reads those pages whole with their headings in 3-25 ms (bench/bench_formats.py).

The title: a heading that is the page's <title> under a banner, else the content's leading
<h1>, else og:title or <title>, else the file name; a first paragraph that only repeats the
title (a word processor's styled title) is dropped.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from core.domain import SourceDocument
from core.ingest.blocks import one_line
from core.ingest.boilerplate import drop_banner, drop_link_lists, strip_junk, unlayout
from core.ingest.document import document_from_blocks
from core.ingest.html_blocks import convert_tree
from core.ingest.html_parse import parse_page

_MIN_TEXT = 200  # characters: below this the fast pass is taken to have missed the content
_HI = {"#b": "b", "#i": "i", "#u": "em", "#t": "code", "#sub": "sub", "#sup": "sup"}
_OPTIONS: dict[str, Any] = {
    "include_formatting": True,
    "include_links": True,
    "include_images": True,
    "include_tables": True,
    "include_comments": False,
}
_LANDMARK = "//main | //*/@role[.='main']/.."  # the attribute axis: 6 times as fast as //*[@role='main']


def parse_html(text: str, source_path: str, *, encoding: str = "utf-8") -> SourceDocument:
    """A web page's main content as a document (no paragraphs when none was found)."""
    try:
        page = parse_page(text)
    except (etree.ParserError, ValueError, RecursionError):
        return document_from_blocks([], source_path, title=None, encoding=encoding)
    root = page.root
    page_title = _page_title(root)
    content = _main_content(root) if root.find("body") is not None else None
    if content is None or not _has_text(content, _MIN_TEXT):
        # the text lxml read whole (a page nested too deep is rewritten: trafilatura's own
        # parse of the page as written would lose the same text)
        extracted = _extracted(page.text)
        if extracted is not None:
            unlayout(extracted)
            content = extracted
    converted = convert_tree(content, leading_h1_is_title=True) if content is not None else None
    # a block that is only pictures' alt text (a row of logos, badges) is page furniture
    blocks = [b for b in converted.blocks if not _only_images(b)] if converted else []
    blocks, banner_title = drop_banner(blocks, page_title)
    title = banner_title or (converted.title if converted else None) or page_title
    if (
        blocks
        and title
        and blocks[0].kind == "paragraph"
        and one_line(blocks[0].text).casefold() == title.casefold()
    ):
        blocks = blocks[1:]  # the title set as a styled first paragraph (a word processor's export)
    return document_from_blocks(blocks, source_path, title=title, encoding=encoding, notices=page.notices)


def _main_content(root: Any) -> Any | None:
    """The page's own landmark (<main>, role=main, its only <article>) with what is not content
    inside it removed; else its <body>, without navigation (blocks mostly of links) too."""
    found = root.xpath(_LANDMARK) or root.xpath("//article")
    if len(found) == 1:
        strip_junk(found[0])
        return found[0]
    if len(found) > 1 and found[0].tag != "article":
        return None  # several main regions: let the extractor choose
    body = root.find("body")
    strip_junk(body)
    unlayout(body)
    drop_link_lists(body)
    return body


def _extracted(text: str) -> Any | None:
    """The main content as trafilatura finds it (the fallback: a page whose body is nearly
    all navigation or script)."""
    import trafilatura
    from trafilatura.settings import Document

    found = trafilatura.bare_extraction(text, fast=True, **_OPTIONS)
    if not isinstance(found, Document) or len(found.text or "") < _MIN_TEXT:
        found = trafilatura.bare_extraction(text, fast=False, **_OPTIONS) or found
    if not isinstance(found, Document) or found.body is None:
        return None
    return _as_html(found.body)


def _has_text(element: Any, wanted: int) -> bool:
    """Whether the element's text (its pieces joined by spaces, the ends stripped) has `wanted`
    characters: read only until it is known (a whole 336 KB page's took 3 ms). A prefix that
    has them is enough: what follows can only add."""
    pieces: list[str] = []
    seen, check_at = 0, 2 * wanted
    for piece in element.itertext():
        pieces.append(piece)
        seen += len(piece) + 1
        if seen >= check_at:
            if len(" ".join(pieces).strip()) >= wanted:
                return True
            check_at = 2 * seen
    return len(" ".join(pieces).strip()) >= wanted


def _only_images(block: Any) -> bool:
    covered = sum(s.end - s.start for s in block.spans if s.kind == "image")
    return covered > 0 and covered >= len(block.text.replace(" ", "").replace("|", "")) * 0.9


def _page_title(root: Any) -> str | None:
    for xpath in ("//meta[@property='og:title']/@content", "//title//text()"):
        value = " ".join("".join(root.xpath(xpath)).split())
        if value:
            return value
    return None


def _as_html(body: Any) -> Any:
    """trafilatura's content XML renamed, in place, to the HTML elements it stands for."""
    for el in body.iter():
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag == "head":
            el.tag = el.get("rend") if el.get("rend") in {f"h{n}" for n in range(1, 7)} else "h2"
        elif tag == "ref":
            el.tag = "a"
            el.set("href", el.get("target") or "")
        elif tag == "hi":
            el.tag = _HI.get(el.get("rend") or "", "span")
        elif tag == "list":
            el.tag = "ol" if (el.get("rend") or "").startswith("ol") else "ul"
        elif tag == "item":
            el.tag = "li"
        elif tag == "quote":
            el.tag = "blockquote"
        elif tag == "code":
            parent = el.getparent()
            outer = parent is None or parent.tag in ("body", "main", "doc", "div", "blockquote")
            el.tag = "pre" if outer else "code"
        elif tag == "row":
            el.tag = "tr"
        elif tag == "cell":
            el.tag = "th" if el.get("role") == "head" else "td"
        elif tag == "graphic":
            el.tag = "img"
        elif tag == "lb":
            el.tag = "br"
    return body
