"""Text -> SourceDocument: normalise, segment by suffix, number paragraphs, hash.

`parse_text` never raises: any string gives a document (possibly with no paragraphs).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from itertools import repeat
from pathlib import PurePath
from typing import Any

from core.domain import SourceDocument, SourceParagraph
from core.ingest.markdown import parse_markdown
from core.ingest.plaintext import fold_lines, normalize_text, split_blocks
from core.text import detect_language
from core.text.locations import shown_path
from core.text.titles import looks_like_title

MARKDOWN_SUFFIXES = (".md", ".markdown")


def paragraph_id(index: int) -> str:
    """0-based position -> p_001, p_002, ... (p_1000 beyond 999)."""
    return f"p_{index + 1:03d}"


def document_id(source_path: str, normalised: bytes) -> str:
    """doc_ + first 12 hex of sha1(path + NUL + normalised text as UTF-8)."""
    digest = hashlib.sha1(source_path.encode("utf-8", "surrogatepass") + b"\0", usedforsecurity=False)
    digest.update(normalised)
    return "doc_" + digest.hexdigest()[:12]


def content_hash(normalised: bytes) -> str:
    """sha1 of the normalised text (UTF-8): content only, no path."""
    return hashlib.sha1(normalised, usedforsecurity=False).hexdigest()


def parse_text(
    text: str, source_path: str, *, suffix: str = ".txt", encoding: str = "utf-8"
) -> SourceDocument:
    """Segment decoded text into a SourceDocument.

    `source_path` is stored as given (read_document passes the resolved absolute path) and goes
    into the document id; `suffix` picks markdown (.md, .markdown) or plain-text segmentation.
    """
    normalised, payload = normalize_text(text)
    title: str | None = None
    metadata: dict[str, Any] = {}
    kinds: Iterable[str]
    if "." + suffix.lower().lstrip(".") in MARKDOWN_SUFFIXES:
        md = parse_markdown(normalised)
        kinds, texts = [k for k, _ in md.blocks], [t for _, t in md.blocks]
        title, metadata = md.title, md.metadata
    else:
        blocks = split_blocks(normalised)
        texts = [fold_lines(block) for block in blocks]
        kinds = repeat("paragraph")
        title = plain_title(blocks)
    count = len(texts)
    # map() over prepared columns: the cheapest way to build 100k+ frozen dataclasses.
    ids = [paragraph_id(i) for i in range(count)]
    paragraphs = tuple(map(SourceParagraph, ids, texts, kinds, range(count)))
    return SourceDocument(
        document_id=document_id(source_path, payload),
        source_path=source_path,
        title=title or _stem(source_path),
        paragraphs=paragraphs,
        encoding=encoding,
        metadata=metadata,
        content_hash=content_hash(payload),
        language=detect_language(normalised),
    )


def plain_title(blocks: list[str]) -> str | None:
    """A plain-text article's title: its first block, when that is one line that looks like a
    title and more text follows. It stays the first paragraph too (nothing is dropped)."""
    if len(blocks) < 2 or "\n" in blocks[0] or not looks_like_title(blocks[0]):
        return None
    return blocks[0].strip()


def _stem(source_path: str) -> str:
    shown = shown_path(source_path)  # a file: URI (a name that is not UTF-8) as its name
    stem = PurePath(shown).stem if shown else ""
    return stem or shown or "untitled"
