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

from core.domain import Locator
from core.ingest.blocks import Block, one_line

_NEVER_CONTENT = ("nav", "aside", "footer", "form", "button", "script", "style", "noscript")
# Attributes are matched from the attribute axis (.//*/@role[...]/..): libxml2 took 25 times as
# long for the same elements as .//*[@role=...] (7 ms of a 336 KB page).
_NOT_CONTENT = (
    ".//*/@role[.='navigation' or .='search' or .='complementary' or .='contentinfo']/.."
    " | .//a/@class[contains(concat(' ', ., ' '), ' headerlink ')]/.. | .//a[normalize-space(.)='¶']"
    " | .//div/@title[.='header' or .='footer']/.."  # LibreOffice's page header and footer
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
    junk = [el for el in element.iter(*_NEVER_CONTENT) if el is not element]
    junk += element.xpath(_NOT_CONTENT)
    # class words and ids in one pass each (an XPath per name cost 30 ms on a 7,000-element page)
    junk += [v.getparent() for v in element.xpath(".//*/@class") if not JUNK_NAMES.isdisjoint(v.split())]
    junk += [v.getparent() for v in element.xpath(".//*/@id") if v in JUNK_NAMES]
    _drop(junk)


def unlayout(element: Any) -> None:
    """Found from the cells up: a cell holding a block makes every table around that cell a
    layout table (an XPath from the tables down was quadratic in nesting: 3.3 s on a 230 KB
    page of nested tables; from every block up through all its ancestors, 18 ms on libxml2's
    news page; this takes 1 ms). Each layout table's parts are then renamed in one walk from the
    outermost, not again for every layout table nested in it."""
    layout: set[Any] = set()
    for cell in element.iter("td", "th", "cell"):
        if cell is element or next(cell.iter(*_CELL_BLOCKS), None) is None:
            continue
        for ancestor in cell.iterancestors():
            if ancestor in layout:
                break  # the tables around it are marked already
            if ancestor.tag == "table":
                layout.add(ancestor)
            if ancestor is element:
                break
    renamed: set[Any] = set()
    for table in [t for t in element.iter("table") if t in layout]:  # outermost first
        if table in renamed:
            continue
        walker = etree.iterwalk(table, events=("start",), tag=_TABLE_PARTS)
        for _, el in walker:  # the table's own rows and cells; a data table inside one stays a table
            if el.tag == "table" and el is not table and el not in layout:
                walker.skip_subtree()
                continue
            if el.tag == "table":
                renamed.add(el)
            el.tag = "div"


def drop_link_lists(element: Any) -> None:
    """Remove the blocks that are mostly links (see the module docstring)."""
    _drop(link_lists(element))


def link_lists(element: Any) -> list[Any]:
    """The blocks inside `element` that are mostly links, outermost last (nothing removed).

    One walk with running sums of stripped text and of the part of it inside links: an
    element's text is what the sums grew by between its start and its end. Summing each
    element's children from dicts took 6.8-9.2 ms of libxml2's 336 KB page, this 5.5-7.7 (best
    of 7, CPU, load 3; the same blocks on the 45 pages of bench_formats and tests/fixtures)."""
    text = linked = in_link = 0
    marks: list[tuple[int, int]] = []
    dropped: list[Any] = []
    for event, el in etree.iterwalk(element, events=("start", "end")):
        tag = el.tag  # a new string each time it is read
        if event == "start":
            if tag in _BLOCKS:  # only a block may be dropped: only its sums are marked
                marks.append((text, linked))
            elif tag == "a":
                in_link += 1
            if own := el.text:
                own_length = len(own.strip())
                text += own_length
                if in_link:
                    linked += own_length
            continue
        if tag in _BLOCKS:
            start_text, start_linked = marks.pop()
            total, links = text - start_text, linked - start_linked
            if el is not element and links and total <= LINK_LIST_MAX and links >= LINK_SHARE * total:
                dropped.append(el)  # counted on: a menu's caption goes with it in the block around
        elif tag == "a":
            in_link -= 1
        if (tail := el.tail) and el is not element:
            tail_length = len(tail.strip())
            text += tail_length
            if in_link:
                linked += tail_length
    return dropped


def _drop(elements: list[Any]) -> None:
    """Remove each element and its subtree; its tail text stays (lxml.html's drop_tree, for
    the plain elements html_blocks.parse_page gives)."""
    for el in elements:
        parent = el.getparent()
        if parent is None:
            continue
        if el.tail:
            previous = el.getprevious()
            if previous is None:
                parent.text = (parent.text or "") + el.tail
            else:
                previous.tail = (previous.tail or "") + el.tail
        parent.remove(el)


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
            # a section's blocks share one locator: each is trimmed once, and stays shared (a
            # second dataclasses.replace per block, for the locator, was 1-1.5 ms of libxml2's
            # 302-block news page); the block itself by field name, not position (3.6 µs against 1.9)
            trimmed: dict[int, Locator] = {}
            rest = []
            for b in blocks[k + 1 :]:
                where = trimmed.get(id(b.locator))
                if where is None:
                    where = trimmed[id(b.locator)] = replace(
                        b.locator, section=_trim(b.locator.section, path)
                    )
                rest.append(replace(b, locator=where))
            return rest, one_line(block.text)
    return blocks, None


def _trim(section: tuple[str, ...], title_path: tuple[str, ...]) -> tuple[str, ...]:
    """A heading path without the title heading and the banner above it."""
    for prefix in (title_path, title_path[:-1]):
        if prefix and section[: len(prefix)] == prefix:
            return section[len(prefix) :]
    return section
