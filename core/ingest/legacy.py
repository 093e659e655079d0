"""Articles stored by an older reader, rendered again the way today's readers render them.

Before reader version 2 a Markdown paragraph was stored as its source: "- **Stability**: ...",
"```python ...```", "[**Install**](https://...)". An article whose file is gone (or changed
since) can still be brought up to date from what the library holds, block by block:

- each stored block is turned back into the Markdown it came from (a heading was stored
  without its "#"s, a quote without its ">"s) and rendered alone, so every paragraph keeps its
  id and position (p_007 stays p_007: the units' evidence stays where it was);
- the heading levels were not stored: every heading is taken as level 2, so a heading path
  is one heading deep;
- a quote of the old text is rendered the same way (`quote_variants`), so a unit quoting
  "**Stability**: the number" is found again exactly as "Stability: the number";
- the words of units the reader did not edit (content, questions, answers), which the
  extractor copied from the old text, get their inline markup rendered too (`unit_text`),
  so a card no longer asks about "**Stability**".

Pure: no I/O. The library reads the stored document and writes the result.
"""

from __future__ import annotations

import re
from dataclasses import replace

from core.domain import NO_LOCATOR, SourceDocument, SourceParagraph
from core.ingest.blocks import Block, Sections, one_line
from core.ingest.inline import join_texts
from core.ingest.markdown import inline_text, parse_markdown

MARKDOWN_SUFFIXES = (".md", ".markdown")
BLANK = "____"  # a cloze question's gap, as core.extraction.offline.questions writes it
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d{1,3}[.)]) +(?=\S)")


def _source_of(p: SourceParagraph) -> str:
    """The Markdown a stored block was read from (as near as the stored text allows)."""
    if p.kind == "heading":
        return "## " + p.text
    if p.kind == "quote":
        return "\n>\n".join("> " + line for line in p.text.split("\n"))
    return p.text


def _render(p: SourceParagraph) -> Block:
    """One stored block rendered alone; a block that renders to nothing keeps its old text."""
    blocks = parse_markdown(_source_of(p)).blocks
    if not blocks:
        return Block(p.kind, p.text)
    if len(blocks) == 1:
        b = blocks[0]
        return Block(p.kind if p.kind != "paragraph" else b.kind, b.text, b.spans, level=b.level)
    text, spans = join_texts([(b.text, b.spans) for b in blocks])
    return Block(p.kind, text, spans)


def rerender_markdown(stored: SourceDocument) -> SourceDocument:
    """The stored document with each paragraph as reader text, spans and heading paths; the
    same paragraph ids, count, document id and content hash (the words did not change)."""
    sections = Sections()
    paragraphs: list[SourceParagraph] = []
    for p in stored.paragraphs:
        b = _render(p)
        locator = sections.heading(2, one_line(b.text)) if p.kind == "heading" else sections.locator
        paragraphs.append(
            SourceParagraph(p.paragraph_id, b.text, p.kind, p.index, locator or NO_LOCATOR, b.spans)
        )
    title = rendered_title(stored.title)
    return replace(stored, paragraphs=tuple(paragraphs), title=title)


def rendered_title(title: str) -> str:
    """A title stored with its inline markup ("How *spacing* works") as a reader sees it."""
    blocks = parse_markdown(title).blocks if title else []
    return one_line(blocks[0].text) if len(blocks) == 1 and blocks[0].text else title


def quote_variants(quote: str) -> list[str]:
    """The quote as today's Markdown reader shows it (rendered as a block, then as inline text
    in one line); the ones that differ from the quote, best first."""
    out: list[str] = []
    blocks = parse_markdown(quote).blocks
    if blocks:
        block_text = join_texts([(b.text, b.spans) for b in blocks])[0]
        out.append(block_text)
        out.append(one_line(" ".join(b.text for b in blocks)))
    return [v for v in dict.fromkeys(out) if v and v != quote]


def unit_text(text: str) -> str:
    """A unit's content, question or answer copied from old Markdown text, as reader text: inline
    markup rendered, a list item's marker dropped ("- **Stability**: ..." -> "Stability: ...")."""
    rendered = _LIST_MARKER.sub("", inline_text(text), count=1)
    if BLANK in text and BLANK not in rendered:
        return text  # a cloze whose blank was inside markup (a link's address): left as it was
    return rendered
