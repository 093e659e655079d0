"""reStructuredText (.rst): docutils, the reference parser, then its HTML read by html_blocks.

The document title (a lone top section, docutils' doctitle transform) is the title; sections
give the heading paths; field lists at the top (:Author: ...) go to metadata. Nothing in the
file can reach outside it: `include`, `raw` and file insertion are off, docutils' own config
files are not read, and its warnings go nowhere (a broken construct stays as its text).
Sphinx's roles and directives (most .rst files are Sphinx documentation) are read as the built
page shows them (core/ingest/rst_sphinx.py).
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import replace

from docutils.core import publish_parts

from core.domain import SourceDocument
from core.ingest.blocks import Block, one_line
from core.ingest.document import document_from_blocks
from core.ingest.html_blocks import convert_html
from core.ingest.plaintext import normalize_text

_TAG = re.compile(r"<[^>]+>")
_DOCINFO = re.compile(r'<dt class="([\w-]+)">.*?</dt>\s*<dd[^>]*>(.*?)</dd>', re.DOTALL)
SETTINGS = {
    "file_insertion_enabled": False,  # no `include`, no `raw :file:`, no `csv-table :file:`
    "raw_enabled": False,
    "_disable_config": True,  # never read docutils.conf from the working folder or home
    "report_level": 5,  # no system messages in the output
    "halt_level": 5,  # never raise for a markup error
    "syntax_highlight": "none",  # no pygments
    "math_output": "latex",  # math as its source text
    "embed_stylesheet": False,
    "input_encoding": "unicode",
}


def parse_rst(text: str, source_path: str, *, encoding: str = "utf-8") -> SourceDocument:
    from core.ingest.rst_sphinx import register

    register()  # Sphinx's roles and directives, read as the built page shows them
    normalised, payload = normalize_text(text)
    parts = publish_parts(
        normalised,
        source_path=source_path,
        writer="html5",
        settings_overrides={**SETTINGS, "warning_stream": io.StringIO()},
    )
    title = _plain(parts.get("title") or "") or None
    converted = convert_html(parts.get("body") or "")
    blocks = converted.blocks
    if title is None and blocks and blocks[0].kind == "heading":
        # several top sections (docutils then makes none the title): the first one's heading
        # titles the page, as Sphinx does, and leaves the heading paths
        title = one_line(blocks[0].text)
        blocks = [_untitled(b, title) for b in blocks[1:]]
    metadata = {key: _plain(value) for key, value in _DOCINFO.findall(parts.get("docinfo") or "")}
    if parts.get("subtitle"):
        metadata["subtitle"] = _plain(parts["subtitle"])
    return document_from_blocks(
        blocks, source_path, title=title, payload=payload, encoding=encoding, metadata=metadata
    )


def _untitled(block: Block, title: str) -> Block:
    section = block.locator.section
    if section[:1] == (title,):
        return replace(block, locator=replace(block.locator, section=section[1:]))
    return block


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", fragment)).split())
