"""Where a Word document's text is: its paragraphs, rows, cells and runs, through whatever
wraps them (issue 34, item 2).

WordprocessingML lets content controls (w:sdt > w:sdtContent), custom XML (w:customXml), smart
tags, tracked insertions and moves (w:ins, w:moveTo), simple fields (w:fldSimple), bidi runs
(w:dir, w:bdo) and markup-compatibility choices (mc:AlternateContent) wrap paragraphs, rows,
cells and runs, nested to any depth. Reading only the body's own children lost every paragraph
in a block-level content control: Word templates put their cover page, table of contents and
form fields in them. So one rule for all of them: an element is looked through unless it is

- what is being looked for (the walk stops there: a paragraph's runs are its own),
- a tracked deletion (w:del, w:moveFrom: the moved text is read at its w:moveTo): not read,
  and counted for the import report,
- properties (w:pPr, w:rPr, w:sdtPr, ...): no text,
- alternate content: only its first choice is read (the fallback repeats it for old readers).

Walks use an explicit stack: no depth of nesting can exhaust Python's.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
ALTERNATE = f"{_MC}AlternateContent"
DELETED = frozenset([f"{W}del", f"{W}moveFrom"])
NO_TEXT = frozenset(
    f"{W}{name}"
    for name in (
        "pPr",
        "rPr",
        "sdtPr",
        "sdtEndPr",
        "tblPr",
        "tblPrEx",
        "tblGrid",
        "trPr",
        "tcPr",
        "sectPr",
        "customXmlPr",
        "smartTagPr",
    )
)
TEXT_BOX = f"{W}txbxContent"


class Deletions:
    """Tracked deletions met while reading (the import report's count)."""

    def __init__(self) -> None:
        self.count = 0

    def met(self, element: Element) -> None:
        if any((t.text or "").strip() for t in element.iter() if t.tag in (f"{W}delText", f"{W}t")):
            self.count += 1


def chosen(alternate: Element) -> list[Element]:
    """What of mc:AlternateContent is read: its first mc:Choice's children (Word writes a
    drawing there and the same as VML in mc:Fallback), else the fallback's."""
    for child in alternate:
        if child.tag == f"{_MC}Choice":
            return list(child)
    for child in alternate:
        if child.tag == f"{_MC}Fallback":
            return list(child)
    return []


def find(
    container: Element, wanted: frozenset[str], deletions: Deletions, *, boxes: bool = False
) -> Iterator[Element]:
    """The elements of `container` whose tag is in `wanted`, in document order, at any depth of
    what wraps them (see the module docstring); the walk does not enter what it yields (a
    table's rows are looked for with tables wanted too, so a nested table's are not found).
    `boxes`: after a paragraph, the text boxes anchored in it (and, so, their paragraphs)."""
    stack: list[Iterator[Element]] = [iter(container)]
    while stack:
        el = next(stack[-1], None)
        if el is None:
            stack.pop()
            continue
        tag = el.tag
        if tag in wanted:
            yield el
            if boxes and tag == f"{W}p":
                stack.append(iter(text_boxes(el)))
        elif tag in DELETED:
            deletions.met(el)
        elif tag in NO_TEXT:
            continue
        elif tag == ALTERNATE:
            stack.append(iter(chosen(el)))
        else:
            stack.append(iter(el))


def text_boxes(paragraph: Element) -> list[Element]:
    """The text boxes (w:txbxContent) anchored in a paragraph, in order: a box inside a box is
    its own (found when its paragraph is read), the fallback of alternate content is not read."""
    if next(paragraph.iter(TEXT_BOX), None) is None:  # most paragraphs: one pass in C
        return []
    found: list[Element] = []
    stack: list[Iterator[Element]] = [iter(paragraph)]
    while stack:
        el = next(stack[-1], None)
        if el is None:
            stack.pop()
        elif el.tag == TEXT_BOX:
            found.append(el)
        elif el.tag == ALTERNATE:
            stack.append(iter(chosen(el)))
        elif el.tag not in DELETED and el.tag not in NO_TEXT:
            stack.append(iter(el))
    return found
