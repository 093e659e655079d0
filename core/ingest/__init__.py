"""Readers and segmentation: a file on disk -> SourceDocument with stable paragraph ids.

Public API (the rest of the code uses only these):
  read_document(path, *, encoding=None, max_bytes=DEFAULT_MAX_BYTES) -> SourceDocument
  parse_text(text, source_path, *, suffix=".txt", encoding="utf-8") -> SourceDocument
  iter_input_files(paths) -> list[Path]   (files as given, folders recursively by suffix)
  scan_inputs(paths) -> InputScan        (the same files, and the folders' files of other types)
  SUPPORTED_SUFFIXES, DEFAULT_MAX_BYTES
Refusals raise core.domain.errors.RefusedInput with a one-line reason.

Modules: decode (bytes -> text), plaintext (newlines, blank-line segmentation, line folding),
markdown (markdown-it block tokens), frontmatter, document (ids, hashes), reader (file checks).
"""

from __future__ import annotations

from core.ingest.document import parse_text
from core.ingest.formats import SUPPORTED_SUFFIXES
from core.ingest.reader import (
    DEFAULT_MAX_BYTES,
    InputScan,
    iter_input_files,
    read_document,
    scan_inputs,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "SUPPORTED_SUFFIXES",
    "InputScan",
    "iter_input_files",
    "parse_text",
    "read_document",
    "scan_inputs",
]
