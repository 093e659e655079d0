"""Markdown -> blocks with kinds, using markdown-it-py's block tokens and their source line maps.

Each top-level block becomes one paragraph: paragraph, heading, list, quote, code, table (HTML
blocks count as paragraphs, rules are dropped). Lists, code and tables are sliced from the source
by the token's line range, so nothing inside them is lost; paragraphs and headings use the
block's text with line breaks folded. Front matter becomes metadata; a leading H1 the title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from core.ingest.frontmatter import parse_front_matter
from core.ingest.plaintext import fold_lines, split_blocks

_OPEN_KINDS = {
    "paragraph_open": "paragraph",
    "heading_open": "heading",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
    "table_open": "table",
}
_LEAF_KINDS = {"fence": "code", "code_block": "code", "html_block": "paragraph"}
_QUOTE_MARKER = re.compile(r"^(?: {0,3}> ?)+")
_COMMENT = re.compile(r"\s*<!--.*?-->\s*", re.DOTALL)


@dataclass
class MarkdownResult:
    blocks: list[tuple[str, str]]  # (kind, text) in document order
    title: str | None  # the first H1, if any
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter keys + front_matter_raw


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
    # Only block structure is needed: skip inline parsing (emphasis, links) for speed.
    md.disable(["inline", "text_join"], ignoreInvalid=True)
    return md


def _slice(lines: list[str], span: list[int] | None) -> str:
    if not span:
        return ""
    chunk = lines[span[0] : span[1]]
    while chunk and not chunk[-1].strip():
        chunk.pop()
    while chunk and not chunk[0].strip():
        chunk.pop(0)
    return "\n".join(chunk)


def _quote_text(lines: list[str], span: list[int] | None) -> str:
    if not span:
        return ""
    inner = "\n".join(_QUOTE_MARKER.sub("", line) for line in lines[span[0] : span[1]])
    return "\n".join(fold_lines(block) for block in split_blocks(inner))


def parse_markdown(text: str) -> MarkdownResult:
    """Normalised markdown text -> ordered (kind, text) blocks, first-H1 title and front matter."""
    tokens = _parser().parse(text)
    lines = text.split("\n")
    result = MarkdownResult(blocks=[], title=None)
    first_block = True
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok.level != 0 or tok.nesting == -1:
            continue
        if tok.type == "front_matter":
            result.metadata = {**parse_front_matter(tok.content), "front_matter_raw": tok.content}
            continue
        kind = _OPEN_KINDS.get(tok.type) or _LEAF_KINDS.get(tok.type)
        if kind is None:  # hr, reference definitions and other text-less blocks
            continue
        body = _block_text(tok, kind, tokens, i, lines)
        if tok.type == "html_block" and _COMMENT.fullmatch(body):
            continue  # an HTML comment is invisible when rendered: neither text nor the first block
        if kind == "heading" and tok.tag == "h1" and not result.title and body:
            result.title = body
            if first_block:
                first_block = False
                continue  # the leading H1 is the title, not a paragraph
        first_block = False
        if body:
            result.blocks.append((kind, body))
    return result


def _block_text(tok: Token, kind: str, tokens: list[Token], nxt: int, lines: list[str]) -> str:
    if kind in ("paragraph", "heading") and tok.nesting == 1:
        inline = tokens[nxt] if nxt < len(tokens) else None
        content = inline.content if inline is not None and inline.type == "inline" else ""
        return fold_lines(content.strip())
    if kind == "quote":
        return _quote_text(lines, tok.map)
    return _slice(lines, tok.map)
