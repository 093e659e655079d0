"""A minimal PDF writer for tests: pages of text lines at given sizes (Helvetica), an optional
document information Title. No dependency: the objects and the cross-reference table by hand."""

from __future__ import annotations

import io
from dataclasses import dataclass


@dataclass(frozen=True)
class TextLine:
    text: str  # ASCII; parentheses and backslashes are escaped here
    size: float
    y: float  # baseline, PDF points from the bottom of a 612 x 792 page
    x: float = 72


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[TextLine]], *, title: str | None = None) -> bytes:
    """A PDF of these pages; `title` goes into the document information dictionary."""
    n = len(pages)
    page_ids = [3 + 2 * i for i in range(n)]
    font = 3 + 2 * n
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {n} >>".encode(),
        font: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    for page, lines in zip(page_ids, pages, strict=True):
        content = " ".join(
            f"BT /F1 {line.size:g} Tf {line.x:g} {line.y:g} Td ({_escape(line.text)}) Tj ET" for line in lines
        ).encode("latin-1")
        objects[page] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page + 1} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>"
        ).encode()
        objects[page + 1] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)
    info = ""
    if title is not None:
        objects[font + 1] = f"<< /Title ({_escape(title)}) >>".encode("latin-1")
        info = f" /Info {font + 1} 0 R"
    return pdf_file(objects, info)


def pdf_file(objects: dict[int, bytes], info: str = "") -> bytes:
    """The PDF file of these numbered objects (1: the catalog), with its cross-reference table;
    `info`: more of the trailer, such as " /Info 9 0 R"."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number in range(1, len(objects) + 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, objects[number]))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, info.encode(), xref)
    )
    return out.getvalue()
