"""What an agent may do with the library (served over MCP by `memoryrush mcp`): read, and propose.

    tools = AgentTools(services, allow_propose=False, client="claude")
    tools.search(query, limit, filters) -> list[SearchHit]
    tools.unit(unit_id) -> UnitDetail             # content, quotes in their paragraphs, source, questions
    tools.paragraph(article_id, paragraph_id) -> ParagraphDetail
    tools.due(limit) -> DueList                    # cards due now, most overdue first
    tools.propose(article_id, content, ...) -> int # a proposal in Triage; ProposalRefused says why not

A proposal passes the same validator as every extractor's output (each quote must be in its
paragraph; duplicates of the article's units are refused) and is stored as *proposed*, with
extractor "agent" and the client's name as its model: only the reader confirms. Proposing is off
unless `allow_propose` (the --allow-propose flag or [agents] allow_propose).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.domain import SourceDocument, StoredQuestion, ValidationIssue, ValidationReport
from core.domain.artifact import report_to_list
from core.domain.errors import MemoryRushError
from core.domain.export import AGENT
from core.domain.search import SearchFilters, SearchHit
from core.services.bootstrap import Services
from core.storage import proposals
from core.validation import validate_raw

MAX_LIMIT = 100


class AgentError(MemoryRushError):
    """A request an agent made that cannot be answered (unknown id, proposing switched off)."""


class ProposalRefused(AgentError):
    """The proposal failed validation; `issues` say what to fix."""

    def __init__(self, issues: tuple[ValidationIssue, ...]) -> None:
        super().__init__("; ".join(f"{i.code}: {i.message}" for i in issues))
        self.issues = issues


@dataclass(frozen=True, slots=True)
class QuoteDetail:
    paragraph_id: str
    quote: str
    paragraph: str  # the whole paragraph the quote is from ("" if it is gone)
    locator: str = ""  # section / page / chapter, when paragraphs know it (issue 19)


@dataclass(frozen=True, slots=True)
class UnitDetail:
    id: int
    article_id: int
    title: str
    source_path: str
    content: str
    memory_type: str
    status: str
    tags: tuple[str, ...]
    origin: str  # the extractor that proposed it ("reader": made by the reader)
    evidence: tuple[QuoteDetail, ...]
    questions: tuple[StoredQuestion, ...]


@dataclass(frozen=True, slots=True)
class ParagraphDetail:
    article_id: int
    title: str
    source_path: str
    paragraph_id: str
    position: int
    kind: str
    text: str
    locator: str = ""


@dataclass(frozen=True, slots=True)
class DueList:
    due_now: int
    cards: tuple[proposals.DueCard, ...]


@dataclass
class AgentTools:
    services: Services
    allow_propose: bool = False
    client: str = "agent"

    def search(self, query: str, limit: int = 10, filters: SearchFilters | None = None) -> list[SearchHit]:
        return self.services.search.search(query, max(1, min(limit, MAX_LIMIT)), filters)

    def unit(self, unit_id: int) -> UnitDetail:
        library = self.services.library
        found = library.unit(unit_id)
        if found is None:
            raise AgentError(f"no unit {unit_id}")
        article = library.article(found.article_id)
        evidence = []
        for span in found.evidence:
            para = library.paragraph(found.article_id, span.paragraph_id)
            evidence.append(QuoteDetail(span.paragraph_id, span.quote, para.text if para else ""))
        return UnitDetail(
            id=found.id,
            article_id=found.article_id,
            title=article.title if article else "",
            source_path=article.source_path if article else "",
            content=found.content,
            memory_type=found.memory_type,
            status=found.status,
            tags=found.tags,
            origin=found.extractor,
            evidence=tuple(evidence),
            questions=found.questions,
        )

    def paragraph(self, article_id: int, paragraph_id: str) -> ParagraphDetail:
        library = self.services.library
        article = library.article(article_id)
        para = library.paragraph(article_id, paragraph_id) if article else None
        if article is None or para is None:
            raise AgentError(f"no paragraph {paragraph_id!r} in article {article_id}")
        return ParagraphDetail(
            article_id,
            article.title,
            article.source_path,
            para.paragraph_id,
            para.index,
            para.kind,
            para.text,
        )

    def due(self, limit: int = 20, article_ids: tuple[int, ...] = ()) -> DueList:
        total, cards = proposals.due_cards(
            self.services.clock.epoch(), max(1, min(limit, MAX_LIMIT)), article_ids
        )
        return DueList(total, tuple(cards))

    def _check(
        self, article_id: int, unit: dict[str, Any], questions: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], tuple[ValidationIssue, ...]]:
        """Validate a proposal against its article (after the article's own units, so a repeat of
        one is caught). Returns its questions and warnings; ProposalRefused on any error."""
        library = self.services.library
        article = library.article(article_id)
        if article is None:
            raise AgentError(f"no article {article_id}")
        document = SourceDocument(
            article.document_id, article.source_path, article.title, tuple(library.paragraphs(article_id))
        )
        existing = [
            {"content": u.content, "memory_type": u.memory_type, "evidence": [], "confidence": u.confidence}
            for u in library.units(article_id, ["proposed", "confirmed"])
        ]
        index = len(existing)
        asked = [{**q, "memory_unit_index": index} for q in questions if isinstance(q, dict)]
        report = validate_raw({"memory_units": [*existing, unit], "recall_questions": asked}, document)
        own = tuple(
            i for i in report.issues if i.unit_index == index or i.location.startswith("recall_questions")
        )
        errors = tuple(i for i in own if i.severity == "error")
        if errors or not asked:
            raise ProposalRefused(
                errors or (ValidationIssue("no_question", "has no recall question", "memory_units"),)
            )
        return asked, own

    def propose(
        self,
        article_id: int,
        content: str,
        memory_type: str,
        evidence: list[dict[str, Any]],
        questions: list[dict[str, Any]],
        tags: list[str] | None = None,
        confidence: float = 0.5,
    ) -> int:
        """Validate and store one proposal; returns its unit id."""
        if not self.allow_propose:
            raise AgentError(
                "proposing is switched off: start the server with `memoryrush mcp --allow-propose` "
                "or set [agents] allow_propose = true"
            )
        unit = {
            "content": content,
            "memory_type": memory_type,
            "evidence": evidence,
            "tags": tags or [],
            "confidence": confidence,
        }
        asked, own = self._check(article_id, unit, questions)
        return proposals.add_proposed_unit(
            proposals.NewUnit(
                article_id=article_id,
                content=content.strip(),
                memory_type=memory_type,
                tags=tuple(str(t) for t in tags or ()),
                confidence=float(confidence),
                evidence=tuple((str(e["paragraph_id"]), str(e["quote"])) for e in evidence),
                questions=tuple(
                    (str(q["question"]), str(q["expected_answer"]), str(q.get("kind", "qa"))) for q in asked
                ),
                issues=tuple(report_to_list(ValidationReport(own))),
                extractor=AGENT,
                model=self.client,
            ),
            self.services.clock.epoch(),
        )
