"""The PDFium side of reading a PDF, run as a child process with a memory budget (issue 34).

    python -P pdf_pages.py BUDGET_MB FIRST_PAGE < file.pdf > JSON lines

Why a process of its own: PDFium inflates a page's content stream whole, and a 1 MB file can
hold a stream that inflates to a gigabyte (4 MB to 4 GB): reading one in the app's process took
it to 2.1 GB, 5.3 GB, and on a smaller machine the kernel would kill the whole app. Here the
address space is capped at what the process has after loading the file plus BUDGET_MB; past
that PDFium's allocator aborts this process alone, and core/ingest/pdf.py says which page was
too big. A crash of PDFium on a damaged file likewise ends only this process. No PDFium API
bounds what a stream may inflate to.

Standard library and pypdfium2 only, and nothing of ours: the process starts in 50 ms.

Output, one JSON document a line: {"pages": n}; then one line a page from FIRST_PAGE (0-based:
a page that killed a process is skipped by the next), a list of runs
[text, x0, y0, x1, y1, size, base, soft_end] (pdf_layout.Run's fields) or {"error": message}
for a page PDFium could not load; then {"title": str | null}. A document that cannot be opened
gives {"error": message, "password": bool} alone ({"error": ..., "setup": true}: no pypdfium2). JSON, not pickle: what comes back from the
process that read the hostile file is data the parent parses, never code it runs.
"""

from __future__ import annotations

import ctypes
import json
import sys
from typing import Any


def main() -> None:
    budget_mb, first = int(sys.argv[1]), int(sys.argv[2])
    data = sys.stdin.buffer.read()
    try:
        import pypdfium2 as pdfium
    except ImportError as exc:
        _line(sys.stdout, {"error": str(exc), "setup": True})
        return

    _limit_memory(budget_mb)
    out = sys.stdout
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        _line(out, {"error": str(exc), "password": "password" in str(exc).lower()})
        return
    count = len(pdf)
    _line(out, {"pages": count})
    for index in range(first, count):
        try:
            _line(out, _runs(pdf, index))
        except pdfium.PdfiumError as exc:  # a page PDFium cannot load (a loop in the page tree)
            _line(out, {"error": str(exc)})
    _line(out, {"title": _title(pdf)})
    pdf.close()


def _limit_memory(budget_mb: int) -> None:
    """Cap the address space at its present size plus the budget (Linux: /proc; elsewhere the
    process still keeps a crash away from the app, without the cap)."""
    try:
        import resource

        with open("/proc/self/status", encoding="ascii") as status:
            size_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
        cap = size_kb * 1024 + budget_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, OSError, StopIteration, ValueError):
        pass


def _line(out: Any, value: object) -> None:
    out.write(json.dumps(value) + "\n")
    out.flush()  # a page written is a page the parent knows was read, if a later one kills us


def _runs(pdf: Any, index: int) -> list[list[Any]]:
    """A page's text runs: each of PDFium's text rectangles (a run of characters on one line in
    one text object) with its text, font size (of its middle character), baseline and whether
    its trailing space is one PDFium made up."""
    import pypdfium2.raw as pdfium_c

    page = pdf[index]
    text_page = page.get_textpage()
    x_origin, y_origin = ctypes.c_double(), ctypes.c_double()
    try:
        runs: list[list[Any]] = []
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
            runs.append([text, left, bottom, right, top, size or top - bottom, base, soft])
        return runs
    finally:
        text_page.close()
        page.close()


def _generated_end(text_page: Any, left: float, bottom: float, right: float, top: float) -> bool:
    """Whether the space after a run's last glyph is one PDFium made up from a gap."""
    import pypdfium2.raw as pdfium_c

    last = text_page.get_index(right - 0.5, (bottom + top) / 2, 1.0, (top - bottom) / 2)
    if last is None or last < 0:
        return False
    after = last + 1
    return bool(
        pdfium_c.FPDFText_GetUnicode(text_page.raw, after) == 32
        and pdfium_c.FPDFText_IsGenerated(text_page.raw, after) == 1
    )


def _title(pdf: Any) -> str | None:
    """The document information's Title as PDFium gives it (pdf.py judges it)."""
    import pypdfium2.raw as pdfium_c

    buffer_len = pdfium_c.FPDF_GetMetaText(pdf.raw, b"Title", None, 0)
    if buffer_len <= 2:
        return None
    buffer = ctypes.create_string_buffer(buffer_len)
    pdfium_c.FPDF_GetMetaText(pdf.raw, b"Title", buffer, buffer_len)
    title: str = buffer.raw[: buffer_len - 2].decode("utf-16-le", "replace")
    return title


if __name__ == "__main__":
    main()
