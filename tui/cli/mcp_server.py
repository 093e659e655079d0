"""The library over the Model Context Protocol (stdio), with the official `mcp` SDK's MCPServer.

Each tool is a thin JSON face over core.services.agents.AgentTools; errors come back to the agent
as tool errors with the same sentences a person gets. `propose_unit` exists only when proposing
is switched on, so a read-only server does not even offer it. Imported only by `memoryrush mcp`.
"""

from __future__ import annotations

from dataclasses import asdict
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field  # the SDK's own argument validation (pydantic comes with `mcp`)

from core.domain.errors import MemoryRushError
from core.domain.search import SearchFilters
from core.services.agents import AgentTools, ProposalRefused

INSTRUCTIONS = (
    "MemoryRush is the user's reading memory: articles split into paragraphs p_001..., memory units "
    "grounded in exact quotes, and recall cards reviewed on a schedule. Search it (English and "
    "Chinese), read units with their evidence and source, see what is due. Proposals (when offered) "
    "land in the user's Triage queue; the user decides. Every quote must be copied exactly from its "
    "paragraph (use get_paragraph)."
)


# SQLite's integers are 64-bit: an id, count or offset beyond that names no row and cannot even be
# asked for (the query raised OverflowError, a crash with a 60-line traceback on stderr). Ranged
# types refuse it in the SDK's argument check, with the range, as a tool error.
LARGEST = 2**63 - 1
Id = Annotated[int, Field(ge=1, le=LARGEST)]
Count = Annotated[int, Field(ge=0, le=LARGEST)]


def _version() -> str:
    try:
        return version("memoryrush")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def _hit(h: Any) -> dict[str, Any]:
    return {
        "kind": h.kind,
        "unit_id": h.unit_id,
        "article_id": h.article_id,
        "title": h.title,
        "source_path": h.source_path,
        "paragraph_id": h.paragraph_id,
        "locator": h.locator.label(),  # where the paragraph sits: chapter, page, headings ("" if unknown)
        "snippet": h.snippet,
        "score": round(h.score, 6),
    }


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except ProposalRefused as exc:
        raise ToolError(f"proposal refused, nothing was stored: {exc}") from exc
    except MemoryRushError as exc:
        raise ToolError(str(exc)) from exc


def build_server(tools: AgentTools) -> MCPServer:
    server = MCPServer(name="memoryrush", instructions=INSTRUCTIONS, version=_version())
    _search_tools(server, tools)
    _read_tools(server, tools)
    if tools.allow_propose:
        _propose_tool(server, tools)
    return server


def _search_tools(server: MCPServer, tools: AgentTools) -> None:
    @server.tool()
    def search(
        query: str,
        limit: Count = 10,
        article_ids: list[Id] | None = None,
        statuses: list[str] | None = None,
        memory_types: list[str] | None = None,
        tags: list[str] | None = None,
        due: bool = False,
        units_only: bool = False,
    ) -> dict[str, Any]:
        """Search every paragraph and memory unit (your words are text, never syntax; English and
        Chinese). Filters: article ids, unit statuses (proposed, confirmed, rejected, trashed),
        types (concept, claim, mechanism, example), tags, due (a card due now), units only."""
        filters = SearchFilters(
            article_ids=tuple(article_ids or ()),
            unit_statuses=tuple(statuses or ()),
            memory_types=tuple(memory_types or ()),
            tags=tuple(tags or ()),
            due=due,
            units_only=units_only,
        )
        return {"query": query, "hits": [_hit(h) for h in _call(tools.search, query, limit, filters)]}

    @server.tool()
    def list_due(limit: Count = 20, article_ids: list[Id] | None = None) -> dict[str, Any]:
        """Cards due for review now (learning and review), most overdue first, and how many are due.
        article_ids: only the cards in these articles' decks (a card moved to another article's
        deck has that article as deck_id; article_id stays its source)."""
        return asdict(_call(tools.due, limit, tuple(article_ids or ())))


def _read_tools(server: MCPServer, tools: AgentTools) -> None:
    @server.tool()
    def get_unit(unit_id: Id) -> dict[str, Any]:
        """A memory unit: content, type, status, tags, origin, its questions, and each evidence quote
        with the whole paragraph it is from and the article (title, path)."""
        return asdict(_call(tools.unit, unit_id))

    @server.tool()
    def get_paragraph(article_id: Id, paragraph_id: str) -> dict[str, Any]:
        """One paragraph of an article (paragraph ids look like p_001), with the article's title and path."""
        return asdict(_call(tools.paragraph, article_id, paragraph_id))

    @server.tool()
    def list_articles(limit: Count = 50, offset: Count = 0) -> dict[str, Any]:
        """The articles in the library, newest first: id, title, path, paragraphs, proposed and confirmed units."""
        found = _call(tools.services.library.articles, max(1, min(limit, 500)), max(0, offset))
        keys = ("id", "title", "source_path", "paragraph_count", "proposed", "confirmed", "language")
        return {
            "total": tools.services.library.article_count(),
            "articles": [{k: getattr(a, k) for k in keys} for a in found],
        }


PROPOSE = (
    "Propose a memory unit for the user's Triage (never confirmed by you). memory_type: concept, "
    'claim, mechanism or example. evidence: [{"paragraph_id": "p_003", "quote": "<exact words from '
    'that paragraph>"}]. questions: [{"question": ..., "expected_answer": ..., "kind": "qa" or '
    '"cloze" (a cloze question marks its blank as ____)}]. Refused, with the reasons, when a quote '
    "is not in its paragraph or the unit repeats one already there. "
)


def _propose_tool(server: MCPServer, tools: AgentTools) -> None:
    @server.tool(description=PROPOSE + tools.limits.describe())
    def propose_unit(
        article_id: Id,
        content: str,
        memory_type: str,
        evidence: list[dict[str, str]],
        questions: list[dict[str, str]],
        tags: list[str] | None = None,
        confidence: float = 0.5,
    ) -> dict[str, Any]:
        unit_id = _call(
            tools.propose, article_id, content, memory_type, evidence, questions, tags, confidence
        )
        return {"unit_id": unit_id, "status": "proposed", "where": "Triage"}
