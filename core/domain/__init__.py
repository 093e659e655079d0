"""Domain contracts: frozen dataclasses shared by every floor.

Rows become these at the repository edge; services return them; the TUI renders them.
Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

MemoryType = Literal["concept", "claim", "mechanism", "example"]
MEMORY_TYPES: tuple[str, ...] = ("concept", "claim", "mechanism", "example")
QuestionKind = Literal["qa", "cloze"]
QUESTION_KINDS: tuple[str, ...] = ("qa", "cloze")
ParagraphKind = Literal["paragraph", "heading", "list", "quote", "code", "table"]
# Blocks that are structure, not prose: never evidence.
NON_EVIDENCE_KINDS: frozenset[str] = frozenset({"heading", "code", "table"})


class UnitStatus(StrEnum):
    PROPOSED = "proposed"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    TRASHED = "trashed"


@dataclass(frozen=True, slots=True)
class SourceParagraph:
    paragraph_id: str  # p_001, p_002, ...
    text: str
    kind: str = "paragraph"
    index: int = 0  # 0-based position in the document


@dataclass(frozen=True, slots=True)
class SourceDocument:
    document_id: str  # doc_ + first 12 hex of sha1(path + NUL + normalised text)
    source_path: str
    title: str
    paragraphs: tuple[SourceParagraph, ...]
    encoding: str = "utf-8"
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter etc.
    content_hash: str = ""  # sha1 of the normalised text (content only, no path)
    language: str = "en"  # "en" | "zh" (dominant script)
    notices: tuple[str, ...] = ()  # what reading it had to say (bytes replaced ...)

    def paragraph(self, paragraph_id: str) -> SourceParagraph | None:
        for p in self.paragraphs:
            if p.paragraph_id == paragraph_id:
                return p
        return None


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    paragraph_id: str
    quote: str


@dataclass(frozen=True, slots=True)
class CoreIdea:
    idea: str
    why_it_matters: str
    evidence: tuple[EvidenceSpan, ...]
    salience_score: float


@dataclass(frozen=True, slots=True)
class MemoryUnit:
    content: str
    memory_type: str
    evidence: tuple[EvidenceSpan, ...]
    tags: tuple[str, ...] = ()
    confidence: float = 0.5


@dataclass(frozen=True, slots=True)
class RecallQuestion:
    question: str
    expected_answer: str
    memory_unit_index: int
    kind: str = "qa"


@dataclass(frozen=True, slots=True)
class ArticleMemoryOutput:
    summary: str
    core_ideas: tuple[CoreIdea, ...]
    memory_units: tuple[MemoryUnit, ...]
    recall_questions: tuple[RecallQuestion, ...]


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    code: str  # e.g. "unknown_paragraph", "quote_not_found"
    message: str
    location: str  # e.g. "memory_units[2].evidence[0]"
    severity: Literal["error", "warning"] = "error"

    @property
    def unit_index(self) -> int | None:
        """The memory unit this issue is about, if any (parsed from the location)."""
        prefix = "memory_units["
        if self.location.startswith(prefix):
            end = self.location.find("]")
            try:
                return int(self.location[len(prefix) : end])
            except ValueError:
                return None
        return None


@dataclass(frozen=True, slots=True)
class ValidationReport:
    issues: tuple[ValidationIssue, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(i.severity == "error" for i in self.issues)

    def for_unit(self, index: int) -> tuple[ValidationIssue, ...]:
        return tuple(i for i in self.issues if i.unit_index == index)


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    """What an extractor returns: the output plus provenance for the artifact."""

    output: ArticleMemoryOutput
    extractor: str
    extractor_version: str
    model: str | None = None
    prompt_version: str | None = None
    raw_output: str = ""
    notices: tuple[str, ...] = ()  # e.g. "Ollama unreachable; used the offline extractor"
    dropped: tuple[dict[str, Any], ...] = ()  # units dropped during repair, with reasons


@dataclass(frozen=True, slots=True)
class ProcessingArtifact:
    document: SourceDocument
    extractor: str
    extractor_version: str
    model: str | None
    prompt_version: str | None
    output: ArticleMemoryOutput
    raw_output: str
    validation_report: ValidationReport
    timings: dict[str, float]
    notices: tuple[str, ...] = ()
    dropped: tuple[dict[str, Any], ...] = ()


# --- Library records (what services hand to the CLI and the TUI) ---------------------------


@dataclass(frozen=True, slots=True)
class StoredQuestion:
    id: int
    unit_id: int
    question: str
    expected_answer: str
    kind: str


@dataclass(frozen=True, slots=True)
class StoredUnit:
    id: int
    article_id: int
    position: int  # index of the unit in its artifact's output
    content: str
    memory_type: str
    evidence: tuple[EvidenceSpan, ...]
    tags: tuple[str, ...]
    confidence: float
    status: str
    questions: tuple[StoredQuestion, ...] = ()
    issues: tuple[ValidationIssue, ...] = ()
    extractor: str = ""
    model: str | None = None
    pinned: bool = False
    edited: bool = False

    @property
    def acceptable(self) -> bool:
        """A unit with validation errors cannot be accepted until fixed."""
        return not any(i.severity == "error" for i in self.issues)


@dataclass(frozen=True, slots=True)
class ArticleInfo:
    id: int
    document_id: str
    title: str
    source_path: str
    version: int
    paragraph_count: int
    proposed: int
    confirmed: int
    added_at: int  # UTC epoch seconds
    encoding: str
    language: str = "en"


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    path: str
    status: Literal["imported", "already", "new_version", "refused", "skipped"]  # skipped: another type
    message: str
    article_id: int | None = None
    units: int = 0
