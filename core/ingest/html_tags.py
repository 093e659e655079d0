"""What each HTML tag is to the reader (core.ingest.html_blocks): text never read, block
elements that end a paragraph, headings, containers that become one block, inline spans, void
elements, and the tags the tree walk handles itself."""

from __future__ import annotations

SKIP = frozenset(
    [
        "script",
        "style",
        "noscript",
        "template",
        "head",
        "svg",
        "math",
        "nav",
        "button",
        "select",
        "option",
        "textarea",
        "iframe",
        "object",
        "canvas",
        "audio",
        "video",
        "form",
        "input",
    ]
)
FLOW = frozenset(
    [
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "aside",
        "address",
        "figure",
        "figcaption",
        "details",
        "summary",
        "dl",
        "dt",
        "dd",
        "center",
        "fieldset",
        "legend",
        "hr",
        "body",
        "html",
        "hgroup",
        "caption",
    ]
)
HEADINGS = {f"h{n}": n for n in range(1, 7)}
CONTAINERS = {"ul": "list", "ol": "list", "blockquote": "quote", "table": "table"}
INLINE = {
    "em": "emphasis",
    "i": "emphasis",
    "cite": "emphasis",
    "dfn": "emphasis",
    "var": "emphasis",
    "strong": "strong",
    "b": "strong",
    "code": "code",
    "kbd": "code",
    "samp": "code",
    "tt": "code",
    "a": "link",
}
VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)
# the tags feed_tree handles itself, without attributes (a <br>, a list item, a block element)
BR, LI, BLOCK = 1, 2, 3
FAST = {"br": BR, "li": LI, **dict.fromkeys(FLOW, BLOCK)}
# the end tags handle_endtag does something for when no element is being skipped
END = frozenset(["title", "span", "pre", *INLINE, *HEADINGS, *CONTAINERS, *FLOW]) - VOID
