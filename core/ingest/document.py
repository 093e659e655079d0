"""Text -> SourceDocument: normalise, segment by suffix, number paragraphs, hash.

`parse_text` never raises: any string gives a document (possibly with no paragraphs).
`document_from_blocks` is where every reader's blocks become numbered paragraphs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from core.domain import NO_LOCATOR, Locator, SourceDocument, SourceParagraph
from core.ingest.blocks import Block, contents_text, is_contents, one_line
from core.ingest.plaintext import fold_lines, normalize_text, split_blocks
from core.text import UNSAFE, detect_language, replace_controls
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
    Plain text is kept exactly as segmented (no locators, no spans); Markdown is rendered to
    reader text with its spans and heading paths.
    """
    normalised, payload = normalize_text(text)
    if "." + suffix.lower().lstrip(".") in MARKDOWN_SUFFIXES:
        from core.ingest.markdown import parse_markdown

        md = parse_markdown(normalised)
        return document_from_blocks(
            md.blocks, source_path, title=md.title, payload=payload, encoding=encoding, metadata=md.metadata
        )
    blocks = split_blocks(normalised)
    kinds = ["contents" if is_contents(block) else "paragraph" for block in blocks]  # with its lines
    texts = [  # a contents block keeps an entry a line, as written; prose is folded
        contents_text(block.split("\n")) if kind == "contents" else fold_lines(block)
        for block, kind in zip(blocks, kinds, strict=True)
    ]
    count = len(texts)
    # map() over prepared columns: the cheapest way to build 100k+ frozen dataclasses.
    ids = [paragraph_id(i) for i in range(count)]
    paragraphs = tuple(map(SourceParagraph, ids, texts, kinds, range(count)))
    return SourceDocument(
        document_id=document_id(source_path, payload),
        source_path=source_path,
        title=plain_title(blocks) or title_from_path(source_path),
        paragraphs=paragraphs,
        encoding=encoding,
        metadata={},
        content_hash=content_hash(payload),
        language=detect_language(normalised),
    )


def in_title_section(blocks: list[Block], title: str) -> list[Block]:
    """The blocks before the first heading sit in the title's section: their heading path is
    the title (it was empty, so an export's location field and an agent's had no place for
    them; issue 32). An EPUB chapter's blocks keep their chapter alone."""
    moved: dict[int, Locator] = {}
    out = list(blocks)
    for i, block in enumerate(out):
        where = block.locator
        if block.kind == "heading" or where.section or where.chapter:
            break
        if id(where) not in moved:
            moved[id(where)] = replace(where, section=(title,))
        out[i] = replace(block, locator=moved[id(where)])
    return out


def document_from_blocks(
    blocks: Iterable[Block],
    source_path: str,
    *,
    title: str | None,
    payload: bytes | None = None,
    encoding: str = "utf-8",
    metadata: dict[str, Any] | None = None,
    notices: tuple[str, ...] = (),
) -> SourceDocument:
    """Number blocks into paragraphs (empty or whitespace-only blocks dropped). `payload` is what the document id
    and the content hash come from (a text format's normalised source); by default the title and
    reader text, so a web page or PDF whose words did not change keeps its id. `notices`: what
    the reader read differently from how it was written (the import report shows them)."""
    kept = [b for b in blocks if b.text.strip()]  # a block of whitespace alone (a tab and U+2028) is empty
    if title:
        kept = in_title_section(kept, one_line(title))
    # the ingestion rule for control characters and bidi overrides (plain text's too): each one
    # replaced by one U+FFFD, so the spans' offsets still hold; headings in locators alike.
    # A section's blocks share one locator: each is cleaned once (3,700 blocks of a web page).
    locators: dict[int, Locator] = {}
    for b in kept:
        if id(b.locator) not in locators:
            locators[id(b.locator)] = clean_locator(b.locator)
    paragraphs = tuple(
        SourceParagraph(
            paragraph_id(i), replace_controls(b.text), _kind(b), i, locators[id(b.locator)], b.spans
        )
        for i, b in enumerate(kept)
    )
    body = "\n\n".join(p.text for p in paragraphs)
    if payload is None:
        payload = "\n\n".join([title or "", body]).encode("utf-8", "surrogatepass")
    return SourceDocument(
        document_id=document_id(source_path, payload),
        source_path=source_path,
        title=one_line(replace_controls(title or "")) or title_from_path(source_path),
        paragraphs=paragraphs,
        encoding=encoding,
        metadata=metadata or {},
        content_hash=content_hash(payload),
        language=detect_language(body),
        notices=notices,
    )


def clean_locator(locator: Locator | None) -> Locator:
    """A reader's locator with the ingestion rule applied to its headings and chapter (the same
    object when there was nothing to replace: a section's blocks share one)."""
    if not locator:
        return NO_LOCATOR
    parts = (*locator.section, locator.chapter or "")
    if not any(UNSAFE.search(part) for part in parts):
        return locator
    section = tuple(replace_controls(part) for part in locator.section)
    chapter = replace_controls(locator.chapter) if locator.chapter else None
    return Locator(section, locator.page, chapter)


def plain_title(blocks: list[str]) -> str | None:
    """A plain-text article's title: its first block, when that is one line that looks like a
    title and more text follows. It stays the first paragraph too (nothing is dropped)."""
    if len(blocks) < 2 or "\n" in blocks[0] or not looks_like_title(blocks[0]):
        return None
    return blocks[0].strip()


def title_from_path(source_path: str) -> str:
    shown = shown_path(source_path)  # a file: URI (a name that is not UTF-8) as its name
    stem = PurePath(shown).stem if shown else ""
    return stem or shown or "untitled"


def _kind(block: Block) -> str:
    """A paragraph or list that is a table of contents or an index (leader dots, page numbers:
    any reader's, a PDF's or a Word file's) is "contents": read, searched, never a card."""
    return "contents" if block.kind in ("paragraph", "list") and is_contents(block.text) else block.kind
