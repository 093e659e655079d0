"""PDF: text page by page, in reading order, with page numbers (pypdfium2, PDFium's bindings).

PDFium gives each page's text runs as rectangles (FPDFText_CountRects: a run of characters on
one line in one text object); the run's text comes from inside its rectangle and its font size
from its middle character. pdf_layout turns the runs into paragraphs (furniture out, columns by
XY-cut, hyphenation joined). A paragraph cut by a column or page end is joined with the next
one when that starts in lower case (or, in CJK text, when the first did not end a sentence);
it keeps the page it started on.

Locators: {"page": n} (1-based), with the heading path when the PDF's headings are set larger
than its body text. Refused: encrypted PDFs (a password is needed) and PDFs without a text layer
(scanned pages: run OCR first). Speed: pages are read in one pass, a few ctypes calls per run.

PDFium runs in a child process with a memory budget (pdf_read.py, pdf_pages.py): a page that
inflates to gigabytes, or crashes PDFium, costs that page, named in the import report.
"""

from __future__ import annotations

from core.domain import Locator, SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.blocks import Block, Sections, contents_text, is_contents, one_line
from core.ingest.document import document_from_blocks
from core.ingest.inline import is_cjk
from core.ingest.pdf_layout import (
    Paragraph,
    Run,
    body_font_size,
    ends_open,
    join_lines,
    lines_of,
    paragraphs_of,
    reading_order,
    remove_furniture,
    vocabulary,
)
from core.ingest.pdf_read import read_pages
from core.text.titles import names_a_publisher

SCANNED = (
    "this PDF has no text layer (scanned pages?); MemoryRush reads the text a PDF contains: run "
    "OCR first (for example ocrmypdf) and import the result"
)


def parse_pdf(data: bytes, source_path: str, *, max_text: int) -> SourceDocument:
    read = read_pages(data)
    pages, title = read.pages, _real_title(read.title)
    if sum(len(r.text) for runs in pages for r in runs) > max_text:
        raise RefusedInput("the PDF holds more text than max_file_mb allows; raise it in the config")
    if not any(r.text.strip() for runs in pages for r in runs):
        if read.unread:  # what could be read has no text: the pages that could not are the news
            rest = (
                "the other pages have no text layer"
                if len(read.unread) < len(pages)
                else "it was not imported"
            )
            raise RefusedInput("; ".join(read.unread) + f"; {rest}")
        raise RefusedInput(SCANNED)
    blocks = _blocks(remove_furniture(pages), title)
    if title is None:
        title = _title_heading(blocks)
    notices = tuple(f"{reason}: not imported" for reason in read.unread)
    return document_from_blocks(blocks, source_path, title=title, notices=notices)


def _real_title(title: str | None) -> str | None:
    """The document information's Title, when it is a real one (not a file name, not the
    publisher's name or web address: "X Desktop Group (http://www.freedesktop.org)")."""
    title = one_line(title or "")
    if not title or title.lower().endswith((".pdf", ".doc", ".docx", ".odt", ".tex", ".dvi")):
        return None
    return None if names_a_publisher(title) else title


def _title_heading(blocks: list[Block]) -> str | None:
    """The first large heading of the headings the document opens with, taken out of `blocks`
    as its title; a publisher's line above it (an organisation, a web address) stays."""
    for i, block in enumerate(blocks):
        if block.kind != "heading":
            return None
        if block.level == 1 and not names_a_publisher(block.text):
            return one_line(blocks.pop(i).text)
    return None


def _blocks(pages: list[list[Run]], title: str | None) -> list[Block]:
    """Paragraphs as blocks with page locators; a first heading that repeats the title goes.
    A table of contents' chapter lines, set large as the chapters' own headings, stay contents."""
    body = body_font_size(pages)
    paragraphs: list[Paragraph] = []
    for number, runs in enumerate(pages, 1):
        for leaf in reading_order(runs, body):
            for para in paragraphs_of(lines_of(leaf), body, number):
                if paragraphs and _continues(paragraphs[-1], para):
                    paragraphs[-1].lines.extend(para.lines)
                else:
                    paragraphs.append(para)
    words = vocabulary([line.text for p in paragraphs for line in p.lines])
    sections = Sections()
    blocks: list[Block] = []
    for para in paragraphs:
        text = _bullet(join_lines([line.text for line in para.lines], words))
        sections.at_page(para.page)
        if not blocks and para.heading and title and one_line(text).casefold() == title.casefold():
            continue
        printed = contents_text(line.text for line in para.lines)
        if is_contents(printed):  # a contents page: no heading, an entry a line as printed
            blocks.append(Block("contents", printed, (), sections.locator))
        elif para.heading and len(text) <= 200:
            level = 1 if para.lines[0].size >= body * 1.6 else 2
            locator = sections.heading(level, one_line(text))
            blocks.append(Block("heading", text, (), locator, level))
        elif text.startswith(BULLETS) and blocks and blocks[-1].kind == "list":
            last = blocks[-1]  # the next item of the same list: one list block, like Markdown's
            blocks[-1] = Block("list", f"{last.text}\n{text}", (), last.locator)
        else:
            kind = "list" if text.startswith(BULLETS) else "paragraph"
            blocks.append(Block(kind, text, (), sections.locator))
    return blocks


BULLETS = tuple(f"{mark} " for mark in "•◦▪‣●○■")  # a list item's first characters


def _bullet(text: str) -> str:
    """A list bullet drawn from a symbol font arrives as a private-use character: "• "."""
    if text and "\ue000" <= text[0] <= "\uf8ff":
        return "• " + text[1:].lstrip()
    return text


def _continues(before: Paragraph, after: Paragraph) -> bool:
    """`after` (the next column or page) goes on with `before`'s sentence (or heading)."""
    if not before.lines or not after.lines or before.heading != after.heading:
        return False
    tail = before.lines[-1].text
    head = after.lines[0].text
    if before.heading:
        return abs(before.lines[-1].size - after.lines[0].size) < 0.5 and head[:1].islower()
    if not ends_open(tail):
        return False
    return head[:1].islower() or (is_cjk(tail[-1:]) and is_cjk(head[:1]))


__all__ = ["SCANNED", "Locator", "parse_pdf"]
