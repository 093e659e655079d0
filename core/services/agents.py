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
unless `allow_propose` (the --allow-propose flag or [agents] allow_propose). A proposal over a
size limit (ProposalLimits in core/services/proposal_checks.py: content, questions, answers, quotes, tags), or beyond 30 made in a
minute to this process, is refused with the limit before anything else is read.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from core.domain import AGENT, ArticleInfo, SourceDocument, StoredQuestion, ValidationIssue, ValidationReport
from core.domain.artifact import report_to_list
from core.domain.card import Card, CardSource
from core.domain.errors import MemoryRushError
from core.domain.search import SearchFilters, SearchHit
from core.services.bootstrap import Services
from core.services.proposal_checks import LIMITS, ProposalLimits, cut, oversized, unbacked_questions
from core.storage import proposals
from core.validation import validate_raw

MAX_LIMIT = 100


class AgentError(MemoryRushError):
    """A request an agent made that cannot be answered (unknown id, proposing switched off)."""


class ProposalRefused(AgentError):
    """The proposal failed validation; `issues` say what to fix."""

    def __init__(self, issues: tuple[ValidationIssue, ...]) -> None:
        # each message at most MESSAGE characters: a refusal names what to fix, it never sends an
        # agent's value back (a 4 MB key of a question was, whole)
        super().__init__("; ".join(f"{i.code}: {cut(i.message)}" for i in issues[:20]))
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
class DueCard:
    """A due card as the `list_due` tool sends it (its JSON keys: the MCP contract), made from
    the domain card and its source in one place (`of`)."""

    card_id: int
    unit_id: int
    article_id: int
    title: str
    question: str
    kind: str
    due: int  # UTC epoch seconds
    state: int
    deck_id: int | None = None  # the deck's article when not the source's (Browse "move to deck")

    @classmethod
    def of(cls, card: Card, source: CardSource) -> DueCard:
        return cls(
            card_id=card.id,
            unit_id=card.unit_id,
            article_id=source.article_id,
            title=source.article_title,
            question=source.question,
            kind=source.kind,
            due=card.due,
            state=card.state,
            deck_id=source.deck_id,
        )


@dataclass(frozen=True, slots=True)
class DueList:
    due_now: int
    cards: tuple[DueCard, ...]


@dataclass
class AgentTools:
    services: Services
    allow_propose: bool = False
    client: str = "agent"
    limits: ProposalLimits = LIMITS
    _calls: deque[int] = field(default_factory=deque)  # when the proposals of the last minute came

    def search(self, query: str, limit: int = 10, filters: SearchFilters | None = None) -> list[SearchHit]:
        return self.services.search.search(query, max(1, min(limit, MAX_LIMIT)), filters)

    def _article(self, article_id: int) -> ArticleInfo | None:
        """The article as an agent may see it: not a deleted one (it waits in the trash)."""
        return self.services.library.article(article_id, deleted_too=False)

    def unit(self, unit_id: int) -> UnitDetail:
        library = self.services.library
        found = library.unit(unit_id)
        article = self._article(found.article_id) if found is not None else None
        if found is None or article is None:
            raise AgentError(f"no unit {unit_id}")
        evidence = []
        for span in found.evidence:
            para = library.paragraph(found.article_id, span.paragraph_id)
            evidence.append(
                QuoteDetail(
                    span.paragraph_id,
                    span.quote,
                    para.text if para else "",
                    para.locator.label() if para else "",
                )
            )
        return UnitDetail(
            id=found.id,
            article_id=found.article_id,
            title=article.title,
            source_path=article.source_path,
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
        article = self._article(article_id)
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
            para.locator.label(),
        )

    def due(self, limit: int = 20, article_ids: tuple[int, ...] = ()) -> DueList:
        total, cards = proposals.due_cards(
            self.services.clock.epoch(), max(1, min(limit, MAX_LIMIT)), article_ids
        )
        return DueList(total, tuple(DueCard.of(card, source) for card, source in cards))

    def _count_call(self) -> None:
        """Refuse a proposal beyond `per_minute` made in the last 60 seconds by this process
        (refused ones count too: checking a flood costs as storing it would)."""
        now = self.services.clock.epoch()
        while self._calls and self._calls[0] <= now - 60:
            self._calls.popleft()
        stored = proposals.proposed_since(AGENT, now - 60)  # by every server process on the library
        if stored >= self.limits.per_minute:
            raise ProposalRefused(
                (
                    ValidationIssue(
                        "too_many_proposals",
                        f"{stored} proposals stored in this library in the last minute, the most it "
                        f"takes from agents ({self.limits.per_minute} a minute); try again later",
                        "propose_unit",
                    ),
                )
            )
        if len(self._calls) < self.limits.per_minute:
            self._calls.append(now)
        else:
            wait = self._calls[0] + 60 - now
            raise ProposalRefused(
                (
                    ValidationIssue(
                        "too_many_proposals",
                        f"{len(self._calls)} proposals in the last minute, the most this server "
                        f"takes ({self.limits.per_minute} a minute); try again in {wait} s",
                        "propose_unit",
                    ),
                )
            )

    def _check(
        self, article_id: int, unit: dict[str, Any], questions: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], tuple[ValidationIssue, ...]]:
        """Validate a proposal against its article (after the article's own units, so a repeat of
        one is caught). Returns its questions and warnings; ProposalRefused on any error."""
        library = self.services.library
        article = self._article(article_id)
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
        own = tuple(i for i in report.issues if i.unit_index == index or i.where.part == "recall_questions")
        errors = tuple(i for i in own if i.severity == "error") + unbacked_questions(unit, asked)
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
        self._count_call()
        too_big = oversized(self.limits, content, evidence, questions, tags, memory_type)
        if too_big:
            raise ProposalRefused(too_big)
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
