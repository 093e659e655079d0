"""A PDF's pages read by PDFium in a child process with a memory budget (pdf_pages.py), and
what could not be read, said per page (issue 34, item 3).

A page whose reading passes PAGE_BUDGET_MB kills only the child (PDFium's allocator aborts at
the cap); its peak resident size, from wait4, tells that from a crash on a damaged page. The
pages after it are read by a new child starting there, so one hostile page costs that page
alone; after MAX_UNREAD such pages the rest is left unread (each costs a process and up to a
second and a half of inflating). A page PDFium cannot load (a loop in the page tree) is
named the same way.

Cost on normal PDFs: one process start (~50 ms: Python and pypdfium2) and the runs as JSON
(~100 ms, read as written). bench/bench_formats.py's 300-page paper: parse 1.14 s in the app's
process, 1.31 s with the child (whose peak is 43 MB resident).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from core.domain.errors import RefusedInput
from core.ingest.pdf_layout import Run

PAGE_BUDGET_MB = 512  # what reading a PDF may add to the reading process (a 300-page paper: ~40 MB)
MAX_UNREAD = 3  # pages that end their reader before the rest is left unread
_CHILD = Path(__file__).with_name("pdf_pages.py")
ENCRYPTED = "this PDF is encrypted (it needs a password); import an unprotected copy"


@dataclass(frozen=True, slots=True)
class PdfPages:
    pages: list[list[Run]]  # each page's runs in page order ([] for a page not read)
    title: str | None  # the document information's Title, as PDFium gives it
    unread: tuple[str, ...]  # why each page not read was not ("page 3 of this PDF ...")


def read_pages(data: bytes) -> PdfPages:
    """Every page's runs, read in child processes. Raises RefusedInput when the document
    cannot be opened (encrypted, damaged) or its reader dies before it has a page count."""
    pages: list[list[Run]] = []
    unread: list[str] = []
    count, title, deaths = None, None, 0
    while count is None or len(pages) < count:
        lines, death = _child(data, first=len(pages))
        header = lines[0] if lines else None
        if isinstance(header, dict) and "error" in header:
            if header.get("password"):
                raise RefusedInput(ENCRYPTED)
            if header.get("setup"):
                raise RefusedInput(f"PDFs cannot be read here ({header['error']}); reinstall MemoryRush")
            raise RefusedInput(f"damaged PDF ({header['error']}); it could not be read")
        if not isinstance(header, dict) or "pages" not in header:
            raise RefusedInput(_refusal(death))
        count = int(header["pages"])
        for line in lines[1:]:
            if isinstance(line, list):
                pages.append(line)
            elif isinstance(line, dict) and "error" in line:
                pages.append([])
                unread.append(
                    f"page {len(pages)} of this PDF could not be loaded (damaged PDF: {line['error']})"
                )
            elif isinstance(line, dict) and "title" in line:
                title = line["title"]
        if death is None or len(pages) >= count:
            break
        pages.append([])  # the page the child died on
        unread.append(f"page {len(pages)} of this PDF {_page_death(death)}")
        deaths += 1
        if deaths >= MAX_UNREAD and len(pages) < count:
            unread.append(f"pages {len(pages) + 1} to {count} of this PDF were left unread after that")
            pages.extend([] for _ in range(count - len(pages)))
    return PdfPages(pages, title, tuple(unread))


def _child(data: bytes, *, first: int) -> tuple[list[Any], Death | None]:
    """The child's JSON lines (the last one, if cut short, left out) and, when it did not end
    normally, how it ended."""
    proc = subprocess.Popen(
        # -P: the script's folder (core/ingest: markdown.py, ...) is not put first on sys.path
        [sys.executable, "-P", str(_CHILD), str(PAGE_BUDGET_MB), str(first)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        # the child reads all of it before it writes a line; one that died at start: said below
        with contextlib.suppress(BrokenPipeError), proc.stdin:
            proc.stdin.write(data)
        lines = _lines(proc.stdout)  # read as written: decoding overlaps the child's reading
        proc.stdout.close()
        status, peak_kb = _wait(proc)
    finally:
        if proc.returncode is None:  # interrupted: leave no reader behind
            proc.kill()
            proc.wait()
    return lines, _death(status, peak_kb)


def _lines(stream: IO[bytes]) -> list[Any]:
    """The JSON lines, pages' runs as Runs; a last line cut short by the child's death left out."""
    lines: list[Any] = []
    for raw in stream:
        try:
            line = json.loads(raw)
            lines.append([Run(*run) for run in line] if isinstance(line, list) else line)
        except (ValueError, TypeError):
            break
    return lines


def _wait(proc: subprocess.Popen[bytes]) -> tuple[int, int]:
    """(exit code, negative for a signal; the child's peak resident size in KB, 0 unknown)."""
    if not hasattr(os, "wait4"):
        return proc.wait(), 0
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, int(usage.ru_maxrss)  # KB on Linux


@dataclass(frozen=True, slots=True)
class Death:
    """How a child that did not end normally ended: over its memory budget, or another way."""

    memory: bool
    how: str  # "stopped (SIGSEGV)", "failed (exit code 1)"


def _death(status: int, peak_kb: int) -> Death | None:
    if status == 0:
        return None
    # the budget's cap makes PDFium's allocator abort; the kernel's OOM killer sends SIGKILL
    memory = status == -signal.SIGKILL or peak_kb * 2 >= PAGE_BUDGET_MB * 1024
    how = f"stopped ({signal.Signals(-status).name})" if status < 0 else f"failed (exit code {status})"
    return Death(memory, how)


_INFLATES = (
    f"expands to more than {PAGE_BUDGET_MB} MB when read (a compressed stream that inflates to gigabytes?)"
)


def _page_death(death: Death) -> str:
    if death.memory:
        return _INFLATES
    return f"could not be read: the PDF reader {death.how} on it (damaged page?)"


def _refusal(death: Death | None) -> str:
    """Why a PDF whose reader ended before it had the page count is refused."""
    if death is not None and death.memory:
        return f"this PDF {_INFLATES}; it could not be read"
    how = death.how if death is not None else "gave no answer"
    return f"damaged PDF (the PDF reader {how} opening it); it could not be read"
