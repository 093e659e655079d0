"""Domain contracts: frozen dataclasses shared by every floor.

Rows become these at the repository edge; services return them; the TUI renders them.
Nothing here does I/O.

The constants are here; the types are in core.domain.model (validation issues in
core.domain.issues), loaded the first time one is named
(`from core.domain import StoredUnit`, PEP 562 `__getattr__`, as textual.widgets does). Any
module of this package (core.domain.errors, ...) runs this file first, and the way to the app's
first frame needs several of them and none of the types: building their ~20 frozen dataclasses
(dataclass compiles each one's methods) was 93M instructions, 7% of that cold start
(bench/tui_cold.py). Type checkers see the types as imported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

MEMORY_TYPES: tuple[str, ...] = ("concept", "claim", "mechanism", "example")
QUESTION_KINDS: tuple[str, ...] = ("qa", "cloze")
# Paragraph kinds: paragraph, heading, list, quote, code, table, contents (SourceParagraph.kind;
# contents: a table of contents or an index, entries with leader dots and page numbers).
# Blocks that are structure, not prose: never evidence.
NON_EVIDENCE_KINDS: frozenset[str] = frozenset({"heading", "code", "table", "contents"})
# The extractor that covers what a model could not (core.extraction.offline's name).
FALLBACK_EXTRACTOR = "offline"
# The `extractor` value of a unit the reader made themselves (issue 16 writes it when a card is
# made from a selection). "Yours" in filters and Browse means `unit.extractor == READER`; every
# other value names the extractor (or agent) that proposed it.
READER = "reader"
# The `extractor` value of a unit an agent proposed over MCP (`memoryrush mcp`).
AGENT = "agent"


# The readers' version, stored with every article (Article.reader_version). Bumped when a
# format's reader starts producing different paragraphs from the same file, so a library can
# bring articles read by an older reader up to date (LibraryService.refresh_readers; which
# formats changed in which version: core.ingest.reader.READER_CHANGED). Kept here, not in
# core.ingest, so opening a library can ask whether anything is stale without loading a reader.
# 2: Markdown inline markup rendered to reader text with spans and heading paths.
# 3: web pages and EPUB chapters read the text after an HTML comment or processing instruction.
READER_VERSION = 3


if TYPE_CHECKING:
    from core.domain.issues import *  # noqa: F403  (what __getattr__ hands out)
    from core.domain.model import *  # noqa: F403
else:
    _MISSING = object()

    def __getattr__(name: str) -> object:
        """A type of core.domain.model or .issues, loaded on first use (then kept here)."""
        if name.startswith("__"):  # dunder probes (copy, pickle, doctest) find nothing here
            raise AttributeError(name)
        from importlib import import_module  # (`from core.domain import model` would ask this hook again)

        for module in ("core.domain.model", "core.domain.issues"):
            value = getattr(import_module(module), name, _MISSING)
            if value is not _MISSING:
                break
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value
