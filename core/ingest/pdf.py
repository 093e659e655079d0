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
"""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from core.domain import Locator, SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.blocks import Block, Sections, one_line
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

SCANNED = (
    "this PDF has no text layer (scanned pages?); MemoryRush reads the text a PDF contains: run "
    "OCR first (for example ocrmypdf) and import the result"
)


def parse_pdf(data: bytes, source_path: str, *, max_text: int) -> SourceDocument:
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise RefusedInput(
                "this PDF is encrypted (it needs a password); import an unprotected copy"
            ) from None
        raise RefusedInput(f"damaged PDF ({exc}); it could not be read") from None
    try:
        pages = [_runs(pdf, i) for i in range(len(pdf))]
        title = _title(pdf)
    finally:
        pdf.close()
    if sum(len(r.text) for runs in pages for r in runs) > max_text:
        raise RefusedInput("the PDF holds more text than max_file_mb allows; raise it in the config")
    if not any(r.text.strip() for runs in pages for r in runs):
        raise RefusedInput(SCANNED)
    blocks = _blocks(remove_furniture(pages), title)
    if title is None and blocks and blocks[0].kind == "heading" and blocks[0].level == 1:
        title = one_line(blocks.pop(0).text)
    return document_from_blocks(blocks, source_path, title=title)


def _runs(pdf: pdfium.PdfDocument, index: int) -> list[Run]:
    page = pdf[index]
    text_page = page.get_textpage()
    x_origin, y_origin = ctypes.c_double(), ctypes.c_double()
    try:
        runs: list[Run] = []
        for i in range(text_page.count_rects()):
            left, bottom, right, top = text_page.get_rect(i)
            text = text_page.get_text_bounded(left, bottom, right, top)
            if not text.strip():
                continue
            middle = text_page.get_index((left + right) / 2, (bottom + top) / 2, right - left, top - bottom)
            if middle is None:  # pypdfium2 gives None where PDFium finds no character
                middle = -1
            size = pdfium_c.FPDFText_GetFontSize(text_page.raw, middle) if middle >= 0 else 0.0
            base = None
            if middle >= 0 and pdfium_c.FPDFText_GetCharOrigin(text_page.raw, middle, x_origin, y_origin):
                base = y_origin.value
            text = text.replace("\r", "").replace("\n", " ")
            soft = text.endswith(" ") and _generated_end(text_page, left, bottom, right, top)
            runs.append(Run(text, left, bottom, right, top, size or top - bottom, base, soft))
        return runs
    finally:
        text_page.close()
        page.close()


def _generated_end(
    text_page: pdfium.PdfTextPage, left: float, bottom: float, right: float, top: float
) -> bool:
    """Whether the space after a run's last glyph is one PDFium made up from a gap."""
    last = text_page.get_index(right - 0.5, (bottom + top) / 2, 1.0, (top - bottom) / 2)
    if last is None or last < 0:
        return False
    after = last + 1
    return bool(
        pdfium_c.FPDFText_GetUnicode(text_page.raw, after) == 32
        and pdfium_c.FPDFText_IsGenerated(text_page.raw, after) == 1
    )


def _title(pdf: pdfium.PdfDocument) -> str | None:
    """The document information's Title, when it is a real one (not a file name)."""
    buffer_len = pdfium_c.FPDF_GetMetaText(pdf.raw, b"Title", None, 0)
    if buffer_len <= 2:
        return None
    buffer = ctypes.create_string_buffer(buffer_len)
    pdfium_c.FPDF_GetMetaText(pdf.raw, b"Title", buffer, buffer_len)
    title = one_line(buffer.raw[: buffer_len - 2].decode("utf-16-le", "replace"))
    if not title or title.lower().endswith((".pdf", ".doc", ".docx", ".odt", ".tex", ".dvi")):
        return None
    return title


def _blocks(pages: list[list[Run]], title: str | None) -> list[Block]:
    """Paragraphs as blocks with page locators; a first heading that repeats the title goes."""
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
        if para.heading and len(text) <= 200:
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
