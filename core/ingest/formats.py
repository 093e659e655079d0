"""Every format MemoryRush reads, in one table: its suffixes, how its bytes are recognised, how
large its file may be, which reader version last changed its paragraphs, what to say when a
file of it holds no text, and its reader (imported only when a file of that format is read,
so start-up never pays for trafilatura, pypdfium2 or docutils).

    format_of(Path("notes.md"))      -> FORMATS' Markdown entry, or None
    SUPPORTED_SUFFIXES               -> every suffix, in the table's order

A text format's reader takes the decoded text (core.ingest.reader decodes it: BOMs, GBK,
UTF-16, a web page's declared charset); a container's reader takes the file's bytes.
Adding a format is one entry here and its reader module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from core.domain import SourceDocument

TextReader = Callable[[str, str, str, str], "SourceDocument"]  # (text, source, suffix, encoding)
BytesReader = Callable[[bytes, str, int], "SourceDocument"]  # (data, source, max_text)


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    suffixes: tuple[str, ...]
    kind: Literal["text", "container"]
    # the reader version (core.domain.READER_VERSION) that last changed this format's paragraphs
    reader_changed: int = 1
    magic: tuple[bytes, ...] = ()  # a container's file starts with one of these
    not_magic: str = ""  # what a file without it is not ("a PDF (no %PDF- header)")
    size_factor: int = 1  # books and papers carry images and fonts: their file may be this many times the cap
    declares_charset: bool = False  # a web page may say its encoding in a <meta> tag
    nothing_found: str = "file has no text to import (only a title, front matter or rules)"
    text_reader: Callable[[], TextReader] | None = None
    bytes_reader: Callable[[], BytesReader] | None = None


def _plain() -> TextReader:
    from core.ingest.document import parse_text

    return lambda text, source, suffix, encoding: parse_text(text, source, suffix=suffix, encoding=encoding)


def _html() -> TextReader:
    from core.ingest.webpage import parse_html

    return lambda text, source, _suffix, encoding: parse_html(text, source, encoding=encoding)


def _rst() -> TextReader:
    from core.ingest.rst import parse_rst

    return lambda text, source, _suffix, encoding: parse_rst(text, source, encoding=encoding)


def _pdf() -> BytesReader:
    from core.ingest.pdf import parse_pdf

    return lambda data, source, max_text: parse_pdf(data, source, max_text=max_text)


def _epub() -> BytesReader:
    from core.ingest.epub import parse_epub

    return lambda data, source, max_text: parse_epub(data, source, max_text=max_text)


def _docx() -> BytesReader:
    from core.ingest.docx import parse_docx

    return lambda data, source, max_text: parse_docx(data, source, max_text=max_text)


_ZIP = (b"PK\x03\x04",)
FORMATS: tuple[Format, ...] = (
    Format("plain text", (".txt",), "text", text_reader=_plain),
    Format("Markdown", (".md", ".markdown"), "text", reader_changed=2, text_reader=_plain),
    Format(
        "web page",
        (".html", ".htm", ".xhtml"),
        "text",
        reader_changed=3,
        declares_charset=True,
        nothing_found="no main text found in this page (only navigation, scripts or forms?)",
        text_reader=_html,
    ),
    Format(
        "reStructuredText",
        (".rst",),
        "text",
        nothing_found="no text found in this RST file",
        text_reader=_rst,
    ),
    Format(
        "EPUB",
        (".epub",),
        "container",
        reader_changed=3,
        magic=_ZIP,
        not_magic="an EPUB file (not a zip)",
        size_factor=10,
        nothing_found="no text found in this EPUB file",
        bytes_reader=_epub,
    ),
    Format(
        "PDF",
        (".pdf",),
        "container",
        magic=(b"%PDF-",),
        not_magic="a PDF (no %PDF- header)",
        size_factor=10,
        nothing_found="no text found in this PDF file",
        bytes_reader=_pdf,
    ),
    Format(
        "Word",
        (".docx",),
        "container",
        magic=_ZIP,
        not_magic="a DOCX file (not a zip)",
        size_factor=10,
        nothing_found="no text found in this DOCX file",
        bytes_reader=_docx,
    ),
)
_BY_SUFFIX = {suffix: f for f in FORMATS for suffix in f.suffixes}
SUPPORTED_SUFFIXES: tuple[str, ...] = tuple(_BY_SUFFIX)


def format_of(path: Path | str) -> Format | None:
    """The format a file of this name is read as (by its suffix), or None."""
    return _BY_SUFFIX.get(Path(path).suffix.lower())
