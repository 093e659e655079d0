"""Readers and segmentation: a file on disk -> SourceDocument with stable paragraph ids.

Public API (the rest of the code uses only these):
  read_document(path, *, encoding=None, max_bytes=DEFAULT_MAX_BYTES) -> SourceDocument
  parse_text(text, source_path, *, suffix=".txt", encoding="utf-8") -> SourceDocument
  iter_input_files(paths) -> list[Path]   (files, and folders recursively by suffix)
  SUPPORTED_SUFFIXES
Refusals raise core.errors.RefusedInput with a one-line reason.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from core.domain import SourceDocument, SourceParagraph
from core.errors import RefusedInput
from core.text import detect_language, replace_controls

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown")
DEFAULT_MAX_BYTES = 10 * 1024 * 1024

# TEMPORARY minimal implementation (plain text, UTF-8 only) until core/ingest is completed.


def parse_text(text: str, source_path: str, *, suffix: str = ".txt", encoding: str = "utf-8") -> SourceDocument:
    text = replace_controls(text.replace("\r\n", "\n").replace("\r", "\n"))
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text) if b.strip()]
    paras = tuple(
        SourceParagraph(f"p_{i + 1:03d}", re.sub(r"\s*\n\s*", " ", b), "paragraph", i)
        for i, b in enumerate(blocks)
    )
    norm = "\n\n".join(p.text for p in paras)
    digest = hashlib.sha1((source_path + "\0" + norm).encode()).hexdigest()[:12]
    return SourceDocument(
        document_id=f"doc_{digest}",
        source_path=source_path,
        title=Path(source_path).stem,
        paragraphs=paras,
        encoding=encoding,
        content_hash=hashlib.sha1(norm.encode()).hexdigest(),
        language=detect_language(norm),
    )


def read_document(path: Path, *, encoding: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> SourceDocument:
    path = Path(path)
    if not path.exists():
        raise RefusedInput(f"{path}: no such file")
    data = path.read_bytes()
    return parse_text(data.decode(encoding or "utf-8"), str(path.resolve()), suffix=path.suffix)


def iter_input_files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*") if x.is_file() and x.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            out.append(p)
    return out
