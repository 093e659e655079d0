"""PDFs that inflate to gigabytes or whose page tree loops (issue 34, items 3 and 4).

A 1 MB PDF whose content stream inflates to 1 GiB took the importing process to 2.1 GB
resident (4 MB: 5.3 GB; an OOM kill, in the app of the whole app), then was refused as having
"no text layer". PDFium now reads in a child process with a memory budget: the import stays
under 1 GB, names the page that expands too far, and keeps the other pages. A page tree that
loops said "unexpected error ... PdfiumError"; it is a damaged PDF, and the pages that load
are kept.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import pytest
from pdf_support import pdf_file

from core.domain.errors import RefusedInput
from core.ingest import read_document
from core.ingest.pdf_read import PAGE_BUDGET_MB

from .helpers import run_mr, write

GIB = 1 << 30
# Runs the command after it, then prints the largest resident size (KB) of any process it waited
# for, the command's own children (PDFium's reader) included: the import's peak.
PEAK = (
    "import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
    "print('peak-kb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)"
)
TOO_BIG = f"expands to more than {PAGE_BUDGET_MB} MB when read"


def text_page(words: str) -> bytes:
    return f"BT /F1 11 Tf 72 720 Td ({words}) Tj ET".encode()


def inflating(size: int) -> bytes:
    """A FlateDecode stream of `size` bytes of spaces after one line of text (~1 MB a GiB)."""
    deflate = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    parts = [deflate.compress(text_page("Hidden under a gigabyte of spaces") + b"\n")]
    parts += [deflate.compress(chunk) for _ in range(size // len(chunk))]
    parts.append(deflate.flush())
    return b"".join(parts)


def pdf(
    pages: list[bytes], *, flate: frozenset[int] = frozenset(), kids: str | None = None, count: int = 0
) -> bytes:
    """A PDF with these content streams, one a page (Helvetica); `flate`: the pages whose stream
    is FlateDecode; `kids` and `count`: the page tree's /Kids and /Count as written (a loop)."""
    n = len(pages)
    page_ids = [3 + 2 * i for i in range(n)]
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: f"<< /Type /Pages /Kids [{kids or ' '.join(f'{p} 0 R' for p in page_ids)}] /Count {count or n} >>".encode(),
    }
    font = 3 + 2 * n
    for i, (page, content) in enumerate(zip(page_ids, pages, strict=True)):
        objects[page] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page + 1} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>"
        ).encode()
        filters = b" /Filter /FlateDecode" if i in flate else b""
        objects[page + 1] = b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(content), filters, content)
    objects[font] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return pdf_file(objects)


def import_with_peak(home: Path, path: Path) -> tuple[str, int]:
    """The real CLI's import of `path`: (what it printed, its peak resident size in KB)."""
    done = run_mr(
        home, "import", str(path), "--extractor", "placeholder", prefix=[sys.executable, "-c", PEAK]
    )
    output = done.stdout + done.stderr
    peak = next(int(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("peak-kb"))
    return output, peak


@pytest.fixture(scope="module")
def bomb_stream() -> bytes:
    return inflating(GIB)


def test_a_pdf_inflating_to_a_gigabyte_is_refused_under_1_gb(
    home: Path, inputs: Path, bomb_stream: bytes
) -> None:
    path = write(inputs / "bomb.pdf", pdf([bomb_stream], flate=frozenset({0})))
    assert len(path.read_bytes()) < 1_100_000  # a 1 MB file
    output, peak_kb = import_with_peak(home, path)
    assert f"refused  {path}: page 1 of this PDF {TOO_BIG}" in output, output
    assert "no text layer" not in output
    assert peak_kb <= 1024 * 1024, f"the import peaked at {peak_kb // 1024} MB"


def test_the_pages_around_an_inflating_one_are_imported_and_it_is_named(
    home: Path, inputs: Path, bomb_stream: bytes
) -> None:
    pages = [text_page("First page read in full"), bomb_stream, text_page("Third page read in full")]
    path = write(inputs / "mixed.pdf", pdf(pages, flate=frozenset({1})))
    output, peak_kb = import_with_peak(home, path)
    assert f"imported {path}: " in output, output
    assert f"page 2 of this PDF {TOO_BIG}" in output and "not imported" in output, output
    assert peak_kb <= 1024 * 1024, f"the import peaked at {peak_kb // 1024} MB"
    doc = read_document(path)
    assert [(p.text, p.locator.page if p.locator else None) for p in doc.paragraphs] == [
        ("First page read in full", 1),
        ("Third page read in full", 3),
    ]


def test_a_page_tree_loop_is_a_damaged_pdf(inputs: Path) -> None:
    """The only page's tree points back at itself: refused as damaged, not 'unexpected error'."""
    path = write(inputs / "loop.pdf", pdf([text_page("Never reached")], kids="2 0 R"))
    with pytest.raises(RefusedInput, match=r"^page 1 of this PDF could not be loaded \(damaged PDF"):
        read_document(path)


def test_the_pages_before_a_page_tree_loop_are_kept(home: Path, inputs: Path) -> None:
    path = write(inputs / "loop.pdf", pdf([text_page("Read before the loop")], kids="3 0 R 2 0 R", count=2))
    doc = read_document(path)
    assert [p.text for p in doc.paragraphs] == ["Read before the loop"]
    assert doc.notices == (
        "page 2 of this PDF could not be loaded (damaged PDF: Failed to load page.): not imported",
    )
    done = run_mr(home, "import", str(path), "--extractor", "placeholder")
    assert done.returncode == 0 and "unexpected error" not in done.stdout + done.stderr, done.stderr
