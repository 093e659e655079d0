"""Files on disk -> SourceDocument, with every refusal explained in one line.

Checks run cheapest first and before anything is decoded: exists, is a file, suffix, size cap,
empty, binary; then decoding and segmentation. Nothing is written anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from core.domain import SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.decode import bad_utf8_notice, binary_kind, decode_bytes
from core.ingest.document import parse_text
from core.ingest.plaintext import is_blank
from core.text.locations import path_text

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown")
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
_MB = 1024 * 1024


def _over_cap(size: int, max_bytes: int) -> str:
    cap = round(max_bytes / _MB, 3)
    shown = f"{size / _MB:.1f}"
    if float(shown) <= cap:  # 10.04 MB over a 10 MB cap: show enough digits to see why
        shown = f"{size / _MB:.3f}".rstrip("0")
    return f"file is {shown} MB, over the {cap:g} MB cap; raise max_file_mb in the config"


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
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise RefusedInput(unsupported(path))
    if st.st_size > max_bytes:
        raise RefusedInput(_over_cap(st.st_size, max_bytes))
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
    if len(data) > max_bytes:  # grew since stat
        raise RefusedInput(_over_cap(len(data), max_bytes))
    if not data:
        raise RefusedInput("file is empty")
    kind = binary_kind(data, nul_is_binary=encoding is None)
    if kind is not None:
        raise RefusedInput(f"not a text file ({kind}); import .txt, .md or .markdown text files")
    text, used = decode_bytes(data, encoding)
    if is_blank(text):
        raise RefusedInput("file is empty")
    document = parse_text(text, path_text(path.resolve()), suffix=path.suffix.lower(), encoding=used)
    if not document.paragraphs:
        raise RefusedInput("file has no text to import (only a title, front matter or rules)")
    notice = bad_utf8_notice(data) if used == "utf-8" and "\ufffd" in text else None
    return replace(document, notices=(notice,)) if notice else document


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
                (found if Path(name).suffix.lower() in SUPPORTED_SUFFIXES else passed).append(
                    Path(root) / name
                )
        found += [Path(error.filename) for error in unreadable if error.filename]
        out.extend(sorted(found))
        skipped.extend((f, unsupported(f)) for f in sorted(passed))
    return InputScan(out, skipped)
