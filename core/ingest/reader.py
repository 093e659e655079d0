"""Files on disk -> SourceDocument, with every refusal explained in one line.

Checks run cheapest first and before anything is decoded: exists, is a file, suffix, size cap,
empty, binary; then decoding and segmentation. Nothing is written anywhere.

Which formats there are, and each one's reader, suffixes, magic bytes and size factor, is
core/ingest/formats.py's table; text formats are decoded here, containers read from their bytes
by their own reader. A reader module (and its library: trafilatura, pypdfium2, docutils) is
imported only when a file of that format is read, so start-up never pays for them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from core.domain import SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.decode import WHAT_IMPORTS, bad_utf8_notice, binary_kind, decode_bytes
from core.ingest.formats import SUPPORTED_SUFFIXES, Format, format_of
from core.ingest.plaintext import is_blank
from core.text.locations import path_text

# The text read from a container is held to max_file_mb itself; its file may be larger by its
# format's size_factor (core.ingest.formats).
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
_MB = 1024 * 1024
_RENAME_HINTS = {
    "PDF document": "if it is a PDF, name it .pdf to import it as one",
    "zip archive": "an EPUB or DOCX file imports when named .epub or .docx",
}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def reader_is_current(source_path: str, reader_version: int) -> bool:
    """Whether an article read by `reader_version` reads the same with today's readers."""
    fmt = format_of(source_path)
    return reader_version >= (fmt.reader_changed if fmt is not None else 1)


def _over_cap(size: int, max_bytes: int, what: str = "") -> str:
    cap = round(max_bytes / _MB, 3)
    shown = f"{size / _MB:.1f}"
    if float(shown) <= cap:  # 10.04 MB over a 10 MB cap: show enough digits to see why
        shown = f"{size / _MB:.3f}".rstrip("0")
    return f"{what or 'file is'} {shown} MB, over the {cap:g} MB cap; raise max_file_mb in the config"


def file_cap(path: Path, max_bytes: int) -> int:
    fmt = format_of(path)
    return max_bytes * (fmt.size_factor if fmt is not None else 1)


def unsupported(path: Path) -> str:
    """Why a file of this type is not read (the suffix is not one of SUPPORTED_SUFFIXES)."""
    shown = path.suffix or "(no suffix)"
    return f"unsupported file type {shown}; supported: {', '.join(SUPPORTED_SUFFIXES)}"


def check_file(path: Path, max_bytes: int) -> int:
    """Refuse what is not an importable file; returns its size in bytes."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise RefusedInput("no such file") from None
    except NotADirectoryError:
        raise RefusedInput("no such file (a parent of it is not a folder)") from None
    except OSError as exc:
        raise RefusedInput(f"cannot read the file: {exc.strerror or exc}") from None
    if path.is_dir():
        try:
            with os.scandir(path):
                pass
        except OSError as exc:
            raise RefusedInput(
                f"cannot read this folder ({exc.strerror or exc}); nothing in it was imported"
            ) from None
        raise RefusedInput(
            "is a directory, not a file; give a file, or import the folder to read it recursively"
        )
    if not path.is_file():
        raise RefusedInput("not a regular file")
    if format_of(path) is None:
        raise RefusedInput(unsupported(path))
    if st.st_size > file_cap(path, max_bytes):
        raise RefusedInput(_over_cap(st.st_size, file_cap(path, max_bytes)))
    return st.st_size


def read_document(
    path: Path, *, encoding: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> SourceDocument:
    """Read, decode and segment one file. Raises RefusedInput with a one-line reason."""
    path = Path(path)
    check_file(path, max_bytes)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RefusedInput(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > file_cap(path, max_bytes):  # grew since stat
        raise RefusedInput(_over_cap(len(data), file_cap(path, max_bytes)))
    if not data:
        raise RefusedInput("file is empty")
    fmt = format_of(path)
    assert fmt is not None  # check_file refused the others
    source = path_text(path.resolve())  # a name that is not UTF-8 as a lossless file: URI
    if fmt.bytes_reader is not None:
        document = _read_container(fmt, data, source, max_bytes)
    else:
        document = _read_text(fmt, path.suffix.lower(), data, source, encoding)
    if not document.paragraphs:
        raise RefusedInput(fmt.nothing_found)
    return document


def _read_text(fmt: Format, suffix: str, data: bytes, source: str, encoding: str | None) -> SourceDocument:
    kind = binary_kind(data, nul_is_binary=encoding is None)
    if kind is not None:
        hint = _RENAME_HINTS.get(kind, WHAT_IMPORTS)
        raise RefusedInput(f"not a text file ({kind}); {hint}")
    declared = _declared_charset(data) if encoding is None and fmt.declares_charset else None
    text, used = _decode_declared(data, declared) if declared else decode_bytes(data, encoding)
    if is_blank(text):
        raise RefusedInput("file is empty")
    assert fmt.text_reader is not None
    document = fmt.text_reader()(text, source, suffix, used)
    notice = bad_utf8_notice(data) if used == "utf-8" and "\ufffd" in text else None
    return replace(document, notices=(*document.notices, notice)) if notice else document


def _read_container(fmt: Format, data: bytes, source: str, max_bytes: int) -> SourceDocument:
    if not data.startswith(fmt.magic):
        raise RefusedInput(f"not {fmt.not_magic}; is the file damaged or misnamed?")
    assert fmt.bytes_reader is not None
    return fmt.bytes_reader()(data, source, max_bytes)


def _declared_charset(data: bytes) -> str | None:
    """The charset a web page declares in its first 4 KB (<meta charset>), when Python knows it."""
    import codecs

    found = _META_CHARSET.search(data[:4096])
    if found is None:
        return None
    name = found.group(1).decode("ascii", "replace")
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return name


def _decode_declared(data: bytes, declared: str) -> tuple[str, str]:
    """The page decoded as it declares, else as decode_bytes detects (the declaration is
    wrong). One decoding of the file: checking the declaration first decoded it twice."""
    try:
        return decode_bytes(data, declared)
    except RefusedInput:
        return decode_bytes(data)


def iter_input_files(paths: Iterable[Path]) -> list[Path]:
    """The files to read: see `scan_inputs` (this drops the list of skipped files)."""
    return scan_inputs(paths).files


@dataclass(frozen=True)
class InputScan:
    files: list[Path]  # to read, in order
    skipped: list[tuple[Path, str]]  # files inside the folders not read, with the reason


def scan_inputs(paths: Iterable[Path]) -> InputScan:
    """Files as given (checked later, so a bad one is reported); folders recursively by suffix.

    Inside a folder: sorted, hidden files and folders (a leading dot) left out, symlinked folders
    not followed (no loops); files of another type are listed in `skipped` with the reason. A
    folder that cannot be read is listed itself, so the import reports it (read_document refuses
    it saying why) instead of skipping it without a word.
    """
    out: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    for p in paths:
        p = Path(p)
        if not p.is_dir():
            out.append(p)
            continue
        found: list[Path] = []
        passed: list[Path] = []
        unreadable: list[OSError] = []
        for root, dirs, files in os.walk(p, onerror=unreadable.append):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in files:
                if name.startswith("."):
                    continue
                (found if format_of(name) is not None else passed).append(Path(root) / name)
        found += [Path(error.filename) for error in unreadable if error.filename]
        out.extend(sorted(found))
        skipped.extend((f, unsupported(f)) for f in sorted(passed))
    return InputScan(out, skipped)
