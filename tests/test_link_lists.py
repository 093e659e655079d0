"""Blocks made mostly of links are navigation (core.ingest.boilerplate.link_lists): which go.

Link text counts wherever it sits inside a link, nested elements and their tails included; a
block's own tail is its parent's text; the element read is never dropped itself.
"""

from __future__ import annotations

from core.ingest.boilerplate import LINK_LIST_MAX, drop_link_lists, link_lists
from core.ingest.html_parse import parse_page

PAGE = """<html><body>
<div id="menu"><b>Menu</b> <ul><li><a href="/a">Home</a></li><li><a href="/b">Docs</a></li>
<li><a href="/c">Download the <em>latest</em> release</a></li></ul></div>
<p id="prose">Spaced repetition spreads reviews over time; see <a href="/r">the paper</a> for
the curve it fits and why its intervals grow.</p>
<p id="half"><a href="/x">half of <i>it</i> linked text</a> and not linked here</p>
<p id="tail"><a href="/y"><span>linked</span> tail inside the link</a> out</p>
</body></html>"""


def ids(elements: list) -> list[str]:
    return [el.get("id") or el.tag for el in elements]


def test_menus_go_and_prose_with_links_stays() -> None:
    body = parse_page(PAGE).root.find("body")
    # each item and the list are all links; the div's caption "Menu" is outweighed, so it goes too
    assert ids(link_lists(body)) == ["li", "li", "li", "ul", "menu", "half", "tail"]
    drop_link_lists(body)
    assert [p.get("id") for p in body] == ["prose"]


def test_a_long_block_of_links_is_content_and_the_element_read_stays() -> None:
    links = "".join(f'<li><a href="/{n}">Chapter {n} of the long book</a></li>' for n in range(200))
    body = parse_page(f"<html><body><ul>{links}</ul></body></html>").root.find("body")
    assert len("".join(body.itertext())) > LINK_LIST_MAX
    assert [el.tag for el in link_lists(body)] == ["li"] * 200  # each item, not the list
    ul = body.find("ul")
    assert ul not in link_lists(ul)
