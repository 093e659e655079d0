"""What on a web page is not its content, found on the parsed tree (lxml) and removed in place.

- `strip_junk`: elements that are never content: nav, aside, footer, forms, buttons, scripts,
  ARIA navigation / search / complementary / contentinfo regions, Sphinx's "¶" permalinks,
  LibreOffice's page header and footer, and blocks whose class words or id name them (share,
  social, comments, related, newsletter, advertisement, cookie banners, sidebars, menus,
  breadcrumbs, site headers and footers).
- `unlayout`: tables used for layout (cells holding paragraphs, headings, lists or tables) are
  renamed to divs, so their cells read as the blocks in them.
- `drop_link_lists`: a block (div, list, table, cell, paragraph...) whose text is mostly link
  text is navigation: a menu, a list of related pages, a tag cloud. Measured in one pass over
  the tree (the text and the linked text of every element, children first).
- `drop_banner`: headings standing before the page's own title (a site name set as <h1> above
  the page's <h2>) are the site's, not the page's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lxml import etree

from core.ingest.blocks import Block, one_line

_NOT_CONTENT = (
    ".//nav | .//aside | .//footer | .//form | .//button | .//script | .//style | .//noscript"
    " | .//*[@role='navigation' or @role='search' or @role='complementary' or @role='contentinfo']"
    " | .//a[contains(concat(' ', @class, ' '), ' headerlink ')] | .//a[normalize-space(.)='¶']"
    " | .//div[@title='header' or @title='footer']"  # LibreOffice's page header and footer
)
JUNK_NAMES = frozenset(
    {
        "share",
        "social",
        "comments",
        "related",
        "newsletter",
        "advertisement",
        "cookie-banner",
        "sidebar",
        "navbar",
        "menu",
        "breadcrumb",
        "breadcrumbs",
        "site-header",
        "site-footer",
        "footer",
    }
)
_CELL_BLOCKS = ("p", "h1", "h2", "h3", "ul", "ol", "table", "pre", "head")
_TABLE_PARTS = frozenset({"table", "tbody", "thead", "tfoot", "tr", "td", "th", "row", "cell"})
_BLOCKS = frozenset(
    {"div", "ul", "ol", "dl", "table", "tbody", "tr", "td", "th", "p", "section", "center", "li", "menu"}
)
LINK_SHARE = 0.5  # a block whose text is at least this share link text is navigation
LINK_LIST_MAX = 3000  # ... unless it is longer than this (characters): a long page of links is content


def strip_junk(element: Any) -> None:
    junk = element.xpath(_NOT_CONTENT)
    # class words and ids in one pass (an XPath per name cost 30 ms on a 7,000-element page)
    for el in element.xpath(".//*[@class or @id]"):
        if el.get("id") in JUNK_NAMES or not JUNK_NAMES.isdisjoint((el.get("class") or "").split()):
            junk.append(el)
    _drop(junk)


def unlayout(element: Any) -> None:
    """Found from the blocks up, in one pass: a block inside a cell makes every table around
    that cell a layout table (an XPath from the tables down was quadratic in nesting: 3.3 s on
    a 230 KB page of nested tables, this takes 10 ms)."""
    layout: set[Any] = set()
    for el in element.iter(*_CELL_BLOCKS):
        in_cell = False
        for ancestor in el.iterancestors():
            if ancestor.tag in ("td", "th", "cell"):
                in_cell = True
            elif ancestor.tag == "table" and in_cell:
                layout.add(ancestor)
            if ancestor is element:
                break
    for table in layout:
        stack = [table]
        while stack:  # the table's own rows and cells; a data table inside one stays a table
            el = stack.pop()
            if el.tag in _TABLE_PARTS:
                el.tag = "div"
            stack.extend(c for c in el if isinstance(c.tag, str) and (c.tag != "table" or c in layout))


def drop_link_lists(element: Any) -> None:
    """Remove the blocks that are mostly links (see the module docstring)."""
    text: dict[Any, int] = {}
    linked: dict[Any, int] = {}
    dropped: list[Any] = []
    for event, el in etree.iterwalk(element, events=("end",)):
        del event
        own = len((el.text or "").strip())
        total, links = own, 0
        for child in el:
            total += text.pop(child, 0) + len((child.tail or "").strip())
            links += linked.pop(child, 0)
        if el.tag == "a":
            links = total
        if (
            el.tag in _BLOCKS
            and el is not element
            and links
            and total <= LINK_LIST_MAX
            and links >= LINK_SHARE * total
        ):
            dropped.append(el)  # counted on: a menu's caption goes with it in the block around
        text[el] = total
        linked[el] = links
    _drop(dropped)


def _drop(elements: list[Any]) -> None:
    for el in elements:
        if el.getparent() is not None:
            el.drop_tree()  # its tail text stays


def drop_banner(blocks: list[Block], page_title: str | None) -> tuple[list[Block], str | None]:
    """When a heading among the first blocks is the page's <title> and only headings come
    before it, those headings are the site's banner: they go, that heading is the title, and
    the blocks after it lose the banner from their heading paths. Returns (blocks, title)."""
    if not page_title:
        return blocks, None
    wanted = one_line(page_title).casefold()
    for k, block in enumerate(blocks[:4]):
        if block.kind != "heading":
            return blocks, None
        if one_line(block.text).casefold() == wanted:
            path = block.locator.section  # the banner headings, then the title itself
            rest = [
                replace(b, locator=replace(b.locator, section=_trim(b.locator.section, path)))
                for b in blocks[k + 1 :]
            ]
            return rest, one_line(block.text)
    return blocks, None


def _trim(section: tuple[str, ...], title_path: tuple[str, ...]) -> tuple[str, ...]:
    """A heading path without the title heading and the banner above it."""
    for prefix in (title_path, title_path[:-1]):
        if prefix and section[: len(prefix)] == prefix:
            return section[len(prefix) :]
    return section
