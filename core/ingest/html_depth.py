"""HTML nested deeper than libxml2 builds, rewritten so that it reads whole (issue 34).

libxml2 stops at 256 open elements (2,048 with XML_PARSE_HUGE, no option lifts the limit)
and drops the rest of the page: the text inside the nesting and everything after it. A page
that hits the limit is rewritten here before it is parsed again: the elements opened below
level `limit` lose their tags and keep their text. A block element among them (div, p, h2,
li, ...) leaves an <hr> where its tags were, so its paragraphs stay apart; an inline one
(span, em, a, font) leaves nothing. <script> and <style> keep their tags: their text is
never read (they hold no elements, so they add one level at most).

Only pages libxml2 could not read whole come here (the rewrite is the Python tokenizer's
speed, about 10 MB/s: a normal page pays nothing). The depth counted here is never below
libxml2's: an end tag closes the open elements above its match only when libxml2 would (its
end-tag priorities: </span> does not close a <div>, </div> does not close a <td>), and a start
tag closes nothing (libxml2's implied ends only lower its depth). The caller checks the
result with libxml2 and lowers the limit if it still falls short.
"""

from __future__ import annotations

from html.parser import HTMLParser

from core.ingest.html_tags import CONTAINERS, FLOW, HEADINGS, VOID

# libxml2's htmlEndPriority: an end tag closes an open element only when its priority is at
# least that element's (HTMLparser.c); every other tag is 100.
_END_PRIORITY = {
    "div": 150,
    "td": 160,
    "th": 160,
    "tr": 170,
    "thead": 180,
    "tbody": 180,
    "tfoot": 180,
    "table": 190,
    "head": 200,
    "body": 200,
    "html": 220,
}
_BLOCKS = FLOW | set(HEADINGS) | set(CONTAINERS) | {"li", "tr", "td", "th", "pre"}
_RAW = frozenset(["script", "style"])  # their content is text to both parsers
_VOID = VOID | {"param", "keygen", "basefont", "frame", "isindex"}  # libxml2's empty elements


class _Flattener(HTMLParser):
    """Re-emits the page token by token, dropping the tags of elements opened too deep."""

    def __init__(self, limit: int) -> None:
        super().__init__(convert_charrefs=False)
        self.limit = limit
        self.out: list[str] = []
        self.flattened = 0  # elements whose tags were dropped
        self._open: list[tuple[str, bool]] = []  # (tag, kept) of each open element
        self._kept = 0  # open elements whose tags were kept: the depth libxml2 sees

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text() or f"<{tag}>"
        if tag in _VOID:
            self.out.append(raw)  # no depth: kept as written (a hidden <hr> stays hidden)
            return
        kept = self._kept < self.limit or tag in _RAW
        self._open.append((tag, kept))
        if kept:
            self._kept += 1
            self.out.append(raw)
        else:
            self.flattened += 1
            self._boundary(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID or self._kept < self.limit:
            self.out.append(self.get_starttag_text() or f"<{tag}/>")
        else:
            self.flattened += 1
            self._boundary(tag)

    def handle_endtag(self, tag: str) -> None:
        priority = _END_PRIORITY.get(tag, 100)
        for i in range(len(self._open) - 1, -1, -1):
            name, kept = self._open[i]
            if name == tag:
                closed = self._open[i:]
                del self._open[i:]
                self._kept -= sum(1 for _, k in closed if k)
                if kept:
                    self.out.append(f"</{tag}>")
                else:
                    self._boundary(tag)
                return
            if _END_PRIORITY.get(name, 100) > priority:
                break  # libxml2 ignores this end tag: so does the count
        if tag not in _VOID:
            self.out.append(f"</{tag}>")  # closes nothing we know of: libxml2 decides

    def _boundary(self, tag: str) -> None:
        if tag in _BLOCKS:
            self.out.append("<hr>")

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:
        self.out.append(f"<![{data}]>")


def flatten_nesting(html: str, limit: int) -> tuple[str, int]:
    """The page with every element opened below `limit` open elements reduced to its text (a
    block element to an <hr> between paragraphs), and how many elements that was."""
    flattener = _Flattener(limit)
    flattener.feed(html)
    flattener.close()
    return "".join(flattener.out), flattener.flattened
