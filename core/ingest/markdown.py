"""Markdown -> blocks of reader text, using markdown-it-py's tokens.

Each top-level block becomes one paragraph: paragraph, heading, list, quote, code, table (HTML
blocks render to their text, rules are dropped). Inline markup is rendered the way a reader
sees it: emphasis, links (their text), code spans and images (their alt text) become plain text
with spans; lists get bullets ("• ", "1. ") one item a line, tables one row a line with cells
between " | ", code blocks lose their fences. Front matter becomes metadata; a leading H1 the
title; every block carries its heading path (the title H1 not included).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from core.domain import InlineSpan
from core.ingest.blocks import Block, Sections, one_line
from core.ingest.frontmatter import parse_front_matter
from core.ingest.inline import TextBuilder, join_texts, shift_spans

_COMMENT = re.compile(r"\s*<!--.*?-->\s*", re.DOTALL)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_CONTAINERS = {"bullet_list_open", "ordered_list_open", "blockquote_open", "table_open"}
_INLINE_SPANS = {"em_open": "emphasis", "strong_open": "strong", "s_open": "strike", "link_open": "link"}
Rendered = tuple[str, tuple[InlineSpan, ...]]


@dataclass
class MarkdownResult:
    blocks: list[Block]  # in document order
    title: str | None  # the first H1, if any
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter keys + front_matter_raw


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).use(front_matter_plugin)


def parse_markdown(text: str) -> MarkdownResult:
    """Normalised markdown text -> ordered blocks, first-H1 title and front matter."""
    tokens = _parser().parse(text)
    result = MarkdownResult(blocks=[], title=None)
    sections = Sections()
    first_block = True
    for tok, inner in _each_block(tokens):
        if tok.type == "front_matter":
            result.metadata = {**parse_front_matter(tok.content), "front_matter_raw": tok.content}
            continue
        kind, (body, spans) = _block(tok, inner)
        if kind is None:
            continue  # rules, reference definitions, comments: nothing a reader sees
        if kind == "heading":
            level = int(tok.tag[1:])
            if level == 1 and not result.title and body:
                result.title = one_line(body)
                if first_block:
                    first_block = False
                    continue  # the leading H1 is the title, not a paragraph
            locator = sections.heading(level, one_line(body))
        else:
            locator = sections.locator
        first_block = False
        if body:
            result.blocks.append(
                Block(kind, body, spans, locator, int(tok.tag[1:]) if kind == "heading" else 0)
            )
    return result


def _each_block(tokens: list[Token]) -> Iterator[tuple[Token, list[Token]]]:
    """Each block at this level: its opening token and the tokens inside it."""
    i = 0
    while i < len(tokens):
        end = _close_of(tokens, i)
        yield tokens[i], tokens[i + 1 : end]
        i = end + 1


def _close_of(tokens: list[Token], i: int) -> int:
    """Index of the token closing tokens[i] (i itself for a leaf)."""
    if tokens[i].nesting != 1:
        return i
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _block(tok: Token, inner: list[Token]) -> tuple[str | None, Rendered]:
    """One top-level block -> (kind, rendered); kind None for what renders to nothing."""
    t = tok.type
    if t in ("paragraph_open", "heading_open"):
        return ("heading" if t == "heading_open" else "paragraph"), _inline(inner)
    if t in ("fence", "code_block"):
        return "code", (tok.content.rstrip("\n"), ())
    if t == "html_block":
        if _COMMENT.fullmatch(tok.content):
            return None, ("", ())
        return "paragraph", render_html_fragment(tok.content)
    if t in ("bullet_list_open", "ordered_list_open"):
        return "list", join_texts(_list_lines(tok, inner, 0))
    if t == "blockquote_open":
        return "quote", join_texts(_flow(inner, 0))
    if t == "table_open":
        return "table", join_texts(_table_rows(inner))
    return None, ("", ())


def _inline(inner: list[Token]) -> Rendered:
    builder = TextBuilder()
    for tok in inner:
        if tok.type == "inline":
            render_inline(tok.children or [], builder)
    return builder.finish()


def render_inline(children: list[Token], b: TextBuilder) -> None:
    """Inline tokens into the builder: text, breaks, emphasis, links, code, images."""
    handles: list[int] = []
    for tok in children:
        t = tok.type
        if t == "text":
            b.text(tok.content)
        elif t == "softbreak":
            b.soft_break()
        elif t == "hardbreak":
            b.hard_break()
        elif t == "code_inline":
            h = b.open("code")
            b.text(tok.content)
            b.close(h)
        elif t in _INLINE_SPANS:
            href = tok.attrGet("href") if t == "link_open" else None
            handles.append(b.open(_INLINE_SPANS[t], str(href) if href is not None else None))
        elif t.endswith("_close") and handles:
            b.close(handles.pop())
        elif t == "image":
            alt = tok.content or "".join(c.content for c in tok.children or [])
            if alt:
                src = tok.attrGet("src")
                h = b.open("image", str(src) if src is not None else None)
                b.text(alt)
                b.close(h)
        elif t == "html_inline" and _BR.fullmatch(tok.content.strip()):
            b.hard_break()


def _flow(tokens: list[Token], depth: int) -> list[Rendered]:
    """Blocks inside a container (quote, list item), rendered one after another."""
    out: list[Rendered] = []
    for tok, inner in _each_block(tokens):
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            out.extend(_list_lines(tok, inner, depth))
        elif tok.type in _CONTAINERS or tok.nesting == 1 or tok.type in ("fence", "code_block", "html_block"):
            kind, rendered = _block(tok, inner)
            if kind is not None and rendered[0]:
                out.append(rendered)
    return out


def _list_lines(tok: Token, inner: list[Token], depth: int) -> list[Rendered]:
    """Each item of a list: its bullet ("• ", or "3. ") then its content; nested lists indented."""
    ordered = tok.type == "ordered_list_open"
    number = int(tok.attrGet("start") or 1) if ordered else 0
    indent = "  " * depth
    out: list[Rendered] = []
    i = 0
    while i < len(inner):
        end = _close_of(inner, i)
        if inner[i].type == "list_item_open":
            marker = f"{indent}{number}. " if ordered else f"{indent}• "
            number += 1
            item = _flow(inner[i + 1 : end], depth + 1)
            inner_indent = indent + "  "  # where the item's own text starts (nested bullets too)
            first, spans = item[0] if item and not item[0][0].startswith(inner_indent) else ("", ())
            rest = item[1:] if first else item
            out.append((marker + first, shift_spans(spans, len(marker))))
            for text, rest_spans in rest:  # a later paragraph of the item stays under its bullet
                if text.startswith(inner_indent):
                    out.append((text, rest_spans))
                else:
                    out.append((inner_indent + text, shift_spans(rest_spans, len(inner_indent))))
        i = end + 1
    return out


def _table_rows(inner: list[Token]) -> list[Rendered]:
    """One line per row, cells between " | "."""
    rows: list[Rendered] = []
    cells: list[Rendered] = []
    for tok in inner:
        if tok.type == "inline":
            builder = TextBuilder()
            render_inline(tok.children or [], builder)
            cells.append(builder.finish())
        elif tok.type == "tr_close":
            rows.append(join_texts([c if c[0] else (" ", ()) for c in cells], " | "))
            cells = []
    return rows


def inline_text(text: str) -> str:
    """Text with inline Markdown (emphasis, links, code spans, images) as a reader sees it;
    block syntax is not read (a leading "- " or "# " stays text), line breaks stay."""
    builder = TextBuilder()
    lines = text.split("\n")
    for n, line in enumerate(lines):
        for tok in _parser().parseInline(line):
            render_inline(tok.children or [], builder)
        if n < len(lines) - 1:
            builder.hard_break()
    return builder.finish()[0]


def render_html_fragment(html: str) -> Rendered:
    """An HTML block inside Markdown, as the text it shows (its blocks one a line)."""
    from core.ingest.html_blocks import html_to_blocks

    return join_texts([(b.text, b.spans) for b in html_to_blocks(html)])
