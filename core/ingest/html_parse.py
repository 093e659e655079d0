"""HTML text -> lxml's tree of the whole page (web pages and EPUB chapters), and what reading
it had to change, for the import report.

Plain lxml elements: lxml.html's element classes cost a Python call for every element visited
(an eighth of reading a 336 KB page); nothing here uses their methods.

libxml2 stops at what it calls a fatal error and keeps the tree built so far: lxml raises
nothing, the error sits in the parser's log, and the rest of the page was silently gone. So
the log is read after every parse:

- "Excessive depth in document" (more than 256 open elements): the page is parsed again with
  the elements below FLAT_LIMIT levels reduced to their text (core/ingest/html_depth.py), and
  the report says so. 300 nested <div>s lost the paragraph inside them, the one after, and
  the <h1> title.
- any other fatal error (a text node over 10 MB, a name over 50,000 characters): parsed again
  with XML_PARSE_HUGE (lxml's huge_tree), which lifts those limits.
- a fatal error that remains: the report names the line where reading stopped.

The first parse is the one every page had before: a normal page pays nothing and reads as
it did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.ingest.html_depth import flatten_nesting

FLAT_LIMIT = 200  # levels kept as written: below libxml2's 256 with room for its implied html, body, p
_MIN_LIMIT = 8
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_DOCTYPE_START = re.compile(r"\s*<!DOCTYPE\s", re.IGNORECASE)


def _doctype_end(html: str) -> int:
    """Where a leading DOCTYPE ends (after its ">"), 0 when the page does not start with one
    or it never closes. Its quoted literals (a system id, an ATTLIST default, an entity value)
    and its internal subset ("[ ... ]", comments and processing instructions in it) may hold a ">"
    or "]"; the HTML parser ended
    the DOCTYPE at the first one and read the rest (its tail, the title and the body as one
    paragraph) as text. One pass over the characters (a regex with these alternatives backtracked
    exponentially on an unclosed subset of comments)."""
    start = _DOCTYPE_START.match(html)
    if start is None:
        return 0
    i, n, in_subset = start.end(), len(html), False
    while i < n:
        ch = html[i]
        if ch in "\"'":
            close = html.find(ch, i + 1)
            if close < 0:
                return 0
            i = close + 1
        elif in_subset and html.startswith("<!--", i):
            close = html.find("-->", i + 4)
            if close < 0:
                return 0
            i = close + 3
        elif in_subset and html.startswith("<?", i):  # a processing instruction ("<?pi ]> ?>")
            close = html.find("?>", i + 2)
            if close < 0:
                return 0
            i = close + 2
        elif ch == "[" and not in_subset:
            in_subset, i = True, i + 1
        elif ch == "]" and in_subset:
            in_subset, i = False, i + 1
        elif ch == ">" and not in_subset:
            return i + 1
        else:
            i += 1
    return 0


@dataclass(frozen=True, slots=True)
class Page:
    root: Any  # lxml's <html> element, comments and processing instructions removed
    text: str  # the text lxml read: the page itself unless it had to be rewritten
    notices: tuple[str, ...] = ()  # what was read differently from how it was written


def without_prolog(html: str) -> str:
    """The page without its XML declaration (lxml refuses a str that declares an encoding: the
    text is decoded already) and without its DOCTYPE's internal subset (the HTML parser does
    not read one; its entities stay as written)."""
    html = _XML_DECLARATION.sub("", html, count=1)
    end = _doctype_end(html)
    return "<!DOCTYPE html>" + html[end:] if end else html


def parse_page(html: str) -> Page:
    """lxml's tree of a web page or an XHTML chapter, whole (raises lxml's ParserError when
    there is no element, ValueError or RecursionError on what it cannot read)."""
    from lxml import etree

    text = without_prolog(html)
    root, fatal = _parse(text, huge=False)
    notices: list[str] = []
    if fatal is not None and _too_deep(fatal):
        text, root, fatal, notice = _flattened(text)
        notices.append(notice)
    elif fatal is not None:
        root, fatal = _parse(text, huge=True)
    if fatal is not None:
        notices.append(
            f"the HTML parser stopped at line {fatal.line} ({fatal.message.strip()}): the text after it "
            "is missing"
        )
    if root is None:
        raise etree.ParserError("Document is empty")
    # comments and processing instructions are not text, the text after them is: lxml's tree
    # walk does not visit them, so "a <!-- note --> b" read as "a" until they went (tails kept)
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    return Page(root, text, tuple(notices))


def _parse(text: str, *, huge: bool) -> tuple[Any, Any]:
    """(the root element or None, the first fatal error libxml2 logged or None)."""
    from lxml import etree

    parser = etree.HTMLParser(huge_tree=True) if huge else etree.HTMLParser()
    root = etree.fromstring(text, parser)
    fatal = next((e for e in parser.error_log if e.level_name == "FATAL"), None)
    return root, fatal


def _too_deep(error: Any) -> bool:
    return "excessive depth" in str(error.message).lower()


def _flattened(text: str) -> tuple[str, Any, Any, str]:
    """The page with its deepest elements reduced to their text, until libxml2 reads it whole
    (the count in html_depth is never below libxml2's: the first limit does it; the loop is
    the guard). Returns (text, root, fatal error or None, notice)."""
    limit = FLAT_LIMIT
    while True:
        flat, count = flatten_nesting(text, limit)
        root, fatal = _parse(flat, huge=True)
        if fatal is None or not _too_deep(fatal) or limit <= _MIN_LIMIT:
            break
        limit //= 2
    notice = (
        f"elements nested more than 256 deep, past what the HTML parser reads: {count} elements "
        f"below level {limit} were read as plain text (the text is kept; their headings, lists "
        "and styles read as plain paragraphs)"
    )
    return flat, root, fatal, notice
