"""Web pages (.html, .htm, saved pages): the main content only, with its title and headings.

The main content comes from one of two places, then html_blocks reads it (the reader EPUB
chapters and RST use too):

1. The page's own landmark, when it marks one: <main>, role="main", or its only <article>.
   Documentation generators (Sphinx, mdBook, MkDocs) and most current sites do. A page with no
   site around it (no nav, header, footer, aside, form or ARIA roles: a document a word
   processor saved as HTML) is all content: its <body> is the landmark. What is not
   content inside it is removed: nav, aside, footer, forms and buttons, role=navigation /
   search / complementary / contentinfo, permalink "¶" anchors, and blocks whose class or id
   names them share, social, comments, related, newsletter, advertisement or cookie banners.
2. Otherwise trafilatura (maintained, Apache-2.0), which scores the page's blocks and drops
   navigation, menus, ads, sidebars and footers. Its content XML (head, p, hi, ref, list,
   quote, code, table, graphic) is renamed to the HTML it stands for.

Why not trafilatura everywhere: on landmark pages it dropped headings (on the Rust book's
<main> every heading) or kept one part (on a Sphinx page only the changelog, 29% of the text).
`fast=True` skips its second opinions (readability, jusText): 44 ms a page instead of 261 ms on
the Rust book; the full pass runs only when the fast one finds almost nothing. No metadata
pass: its date detection cost 2.5 s on the first page.

The title: the content's leading <h1>, else og:title, else <title>, else the file name.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.html
import trafilatura
from lxml import etree
from trafilatura.settings import Document

from core.domain import SourceDocument
from core.ingest.document import document_from_blocks
from core.ingest.html_blocks import convert_tree

_MIN_TEXT = 200  # characters: below this the fast pass is taken to have missed the content
_HI = {"#b": "b", "#i": "i", "#u": "em", "#t": "code", "#sub": "sub", "#sup": "sup"}
_OPTIONS: dict[str, Any] = {
    "include_formatting": True,
    "include_links": True,
    "include_images": True,
    "include_tables": True,
    "include_comments": False,
}
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_LANDMARK = "//main | //*[@role='main']"
_SITE_PARTS = "//nav | //aside | //footer | //header | //form | //*[@role] | //iframe"
_JUNK_NAMES = ("share", "social", "comments", "related", "newsletter", "advertisement", "cookie-banner")
_JUNK_CLASS = " or ".join(
    f"contains(concat(' ', normalize-space(@class), ' '), ' {n} ') or @id='{n}'" for n in _JUNK_NAMES
)
_NOT_CONTENT = (
    ".//nav | .//aside | .//footer | .//form | .//button | .//script | .//style | .//noscript"
    " | .//*[@role='navigation' or @role='search' or @role='complementary' or @role='contentinfo']"
    " | .//a[contains(concat(' ', @class, ' '), ' headerlink ')] | .//a[normalize-space(.)='¶']"
    " | .//div[@title='header' or @title='footer']"  # LibreOffice's page header and footer
    f" | .//*[{_JUNK_CLASS}]"
)


def parse_html(text: str, source_path: str, *, encoding: str = "utf-8") -> SourceDocument:
    """A web page's main content as a document (no paragraphs when none was found)."""
    try:  # lxml refuses a str that carries an XML encoding declaration (XHTML): the text is decoded
        root = lxml.html.document_fromstring(_XML_DECLARATION.sub("", text, count=1))
    except (etree.ParserError, ValueError, RecursionError):
        return document_from_blocks([], source_path, title=None, encoding=encoding)
    landmark = _landmark(root)
    content = _content(landmark, text)
    if content is not None:
        _unlayout(content)
    converted = convert_tree(content, leading_h1_is_title=True) if content is not None else None
    # a block that is only pictures' alt text (a row of logos, badges) is page furniture
    blocks = [b for b in converted.blocks if not _only_images(b)] if converted else []
    title = (converted.title if converted else None) or _page_title(root)
    return document_from_blocks(blocks, source_path, title=title, encoding=encoding)


def _landmark(root: Any) -> Any | None:
    found = root.xpath(_LANDMARK)
    if not found:
        found = root.xpath("//article")
    if len(found) != 1 and not root.xpath(_SITE_PARTS):
        found = root.xpath(
            "//body"
        )  # a document saved as HTML (a word processor's export): no site around it
    if not found or (len(found) > 1 and found[0].tag == "article"):
        return None
    element = found[0]
    for junk in element.xpath(_NOT_CONTENT):
        junk.drop_tree()
    return element


def _content(landmark: Any | None, text: str) -> Any | None:
    """The main content as an element: the landmark, else what trafilatura finds."""
    if landmark is not None:
        return landmark
    found = trafilatura.bare_extraction(text, fast=True, **_OPTIONS)
    if not isinstance(found, Document) or len(found.text or "") < _MIN_TEXT:
        found = trafilatura.bare_extraction(text, fast=False, **_OPTIONS) or found
    if not isinstance(found, Document) or found.body is None:
        return None
    return _as_html(found.body)


def _only_images(block: Any) -> bool:
    covered = sum(s.end - s.start for s in block.spans if s.kind == "image")
    return covered > 0 and covered >= len(block.text.replace(" ", "").replace("|", "")) * 0.9


def _unlayout(content: Any) -> None:
    """Tables used for layout (cells holding headings, paragraphs, lists or tables) are read as
    the blocks in them, not as one table block."""
    for table in content.xpath(
        ".//table[.//td//*[self::p or self::h1 or self::h2 or self::h3 or self::ul "
        "or self::ol or self::table or self::pre or self::head]]"
    ):
        for el in table.iter("table", "tbody", "thead", "tr", "td", "th", "row", "cell"):
            el.tag = "div"


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
