"""The domain's types: frozen dataclasses shared by every floor (with core.domain's constants).

Rows become these at the repository edge; services return them; the TUI renders them.
Nothing here does I/O. Named through the package as ever (`from core.domain import StoredUnit`):
core/domain/__init__.py loads this module the first time one of them is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from core.domain import FALLBACK_EXTRACTOR
from core.domain.issues import ValidationIssue, ValidationReport


class AnchorState(StrEnum):
    """A unit's evidence after its source changed (re-import, sync, reader upgrade)."""

    FOUND = ""  # every quote is in the current text
    CHANGED = "changed"  # a quote is gone: waits for the reader to keep or retire it
    KEPT = "kept"  # the reader kept it; its old quote stays as history


class UnitStatus(StrEnum):
    PROPOSED = "proposed"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    TRASHED = "trashed"


SPAN_KINDS: tuple[str, ...] = ("emphasis", "strong", "code", "link", "image", "strike")


@dataclass(frozen=True, slots=True)
class InlineSpan:
    """Styled run of a paragraph's reader text: `text[start:end]` was emphasis, a link, ...

    The text itself is what a reader sees (markup rendered away); spans only say how to style
    it, so quotes stay exact substrings of the text."""

    start: int
    end: int
    kind: str  # one of SPAN_KINDS
    href: str | None = None  # a link's target


def once_each(parts: Iterable[str], before: str = "") -> list[str]:
    """The parts of a place, each as one line (empty ones out), a part that repeats the one
    before it once; the first is compared with `before` (the article's title): an EPUB chapter
    titled like its first heading, a page's "# Title" heading every section. The one rule for
    Locator.label and the cards' context line (core.domain.context)."""
    out: list[str] = []
    last = " ".join(before.split()).casefold()
    for part in parts:
        line = " ".join(part.split())
        if line and line.casefold() != last:
            out.append(line)
            last = line.casefold()
    return out


@dataclass(frozen=True, slots=True)
class Locator:
    """Where a paragraph sits in its source: heading path, PDF page, EPUB chapter."""

    section: tuple[str, ...] = ()  # heading path, outermost first
    page: int | None = None  # 1-based PDF page
    chapter: str | None = None  # EPUB chapter title

    def as_dict(self) -> dict[str, Any]:
        """The artifact's `locator`: only the parts that are known ({} for plain text)."""
        out: dict[str, Any] = {}
        if self.chapter:
            out["chapter"] = self.chapter
        if self.page is not None:
            out["page"] = self.page
        if self.section:
            out["section"] = list(self.section)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Locator:
        """From stored JSON; anything unexpected is left out (never raises)."""
        if not isinstance(data, dict):
            return NO_LOCATOR
        section = data.get("section")
        page = data.get("page")
        chapter = data.get("chapter")
        return cls(
            tuple(str(s) for s in section) if isinstance(section, list) else (),
            page if isinstance(page, int) and not isinstance(page, bool) else None,
            str(chapter) if isinstance(chapter, str) and chapter else None,
        )

    def path(self, under: str = "") -> list[str]:
        """The chapter and headings, outermost first, read under the title `under` (once_each)."""
        return once_each((self.chapter or "", *self.section), under)

    def label(self, under: str = "") -> str:
        """One line for a person: "Basics · p. 3 · Install › Linux" ("" when unknown). Read
        `under` the article's title (shown beside it), a part that repeats it or the part before
        it is said once (once_each): a page's text before its first heading sits in the title's
        own section, and then no heading is left to say."""
        chapter = once_each([self.chapter or ""], under)
        section = once_each(self.section, chapter[0] if chapter else under)
        page = [f"p. {self.page}"] if self.page is not None else []
        return " · ".join([*chapter, *page, *([" › ".join(section)] if section else [])])

    def __bool__(self) -> bool:
        return bool(self.section or self.page is not None or self.chapter)


NO_LOCATOR = Locator()


@dataclass(frozen=True, slots=True)
class SourceParagraph:
    paragraph_id: str  # p_001, p_002, ...
    text: str  # reader text: what a reader sees (inline markup rendered to plain text)
    kind: str = "paragraph"
    index: int = 0  # 0-based position in the document
    locator: Locator = NO_LOCATOR
    spans: tuple[InlineSpan, ...] = ()  # emphasis, links, code, images inside `text`


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
    # the paragraphs proposals may come from (a re-import: the new or changed ones); None: all.
    # The others are the article around them: what a sentence points back to, the topic terms
    propose_from: frozenset[str] | None = None

    def proposable(self, paragraph_id: str) -> bool:
        return self.propose_from is None or paragraph_id in self.propose_from

    def paragraph(self, paragraph_id: str) -> SourceParagraph | None:
        for p in self.paragraphs:
            if p.paragraph_id == paragraph_id:
                return p
        return None


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    paragraph_id: str
    quote: str
    locator: Locator | None = None  # the cited paragraph's place, when read from the library


@dataclass(frozen=True, slots=True)
class SelectedSpan:
    """What a reader selected in one paragraph: the exact span (start, end) of its reader text
    (a selection over consecutive paragraphs is one of these per paragraph, in order)."""

    paragraph_id: str
    start: int
    end: int
    text: str


# What a model writes for a piece of evidence and an artifact carries (the locator is the
# library's: it comes from the cited paragraph).
EVIDENCE_FIELDS: tuple[str, ...] = ("paragraph_id", "quote")


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
class CountNotice:
    """Why an article got no unit, or far fewer than its length suggests (issue 30): the
    import result carries it, and its text goes with the artifact's notices to Triage."""

    units: int  # units proposed
    suggested: int  # what the article's length alone would give
    prose_sentences: int  # sentences that could be units
    rest: tuple[str, ...]  # what the rest of the text is, most first: "code", "tables", ...

    def text(self) -> str:
        rest = _and(self.rest) or "too short to learn from"
        if self.units == 0 and self.prose_sentences == 0:
            return f"no unit: no prose sentences, the text is {rest}"
        if self.units == 0:
            return f"no unit: none of its {self.prose_sentences} prose sentences makes a card"
        unit = "unit" if self.units == 1 else "units"
        return f"{self.units} {unit} where its length suggests {self.suggested}: the rest is {rest}"


def _and(items: tuple[str, ...]) -> str:
    if len(items) < 2:
        return items[0] if items else ""
    return ", ".join(items[:-1]) + " and " + items[-1]


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
    # Paragraphs whose units FALLBACK_EXTRACTOR wrote: Ollama windows whose reply was unusable.
    fallback_paragraphs: tuple[str, ...] = ()
    count_notice: CountNotice | None = None  # few units or none for its length, and why


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
    fallback_paragraphs: tuple[str, ...] = ()  # as in ExtractionResult
    count_notice: CountNotice | None = None  # as in ExtractionResult; its text is in `notices`

    def written_by(self, unit: MemoryUnit) -> tuple[str, str | None]:
        """(extractor, model) that wrote `unit`: FALLBACK_EXTRACTOR for a unit from a window it
        covered (each unit quotes its own window only), else the artifact's own."""
        covered = self.fallback_paragraphs
        if covered and unit.evidence and all(e.paragraph_id in covered for e in unit.evidence):
            return FALLBACK_EXTRACTOR, None
        return self.extractor, self.model


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
    anchor: str = ""  # "" = evidence in the current text; see AnchorState

    @property
    def locator(self) -> Locator | None:
        """Where the unit comes from: the place of its first quote's paragraph (its context
        line, core.domain.context); None when that is not known."""
        return self.evidence[0].locator if self.evidence else None

    @property
    def source_changed(self) -> bool:
        """Its source changed and a quote was not found again: the reader keeps or retires it."""
        return self.anchor == AnchorState.CHANGED

    @property
    def acceptable(self) -> bool:
        """A unit with validation errors cannot be accepted until fixed (or each kept with a
        reason: the issue stays, marked kept)."""
        return not any(i.severity == "error" and not i.kept for i in self.issues)

    def quotes_by_paragraph(self) -> dict[str, tuple[str, ...]]:
        """The unit's quotes by the paragraph they come from, paragraphs in evidence order."""
        grouped: dict[str, list[str]] = {}
        for e in self.evidence:
            grouped.setdefault(e.paragraph_id, []).append(e.quote)
        return {pid: tuple(quotes) for pid, quotes in grouped.items()}


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
    source_missing: bool = False  # a followed folder no longer has its file (sync)
    source_title: str | None = None  # the source's own title, when the reader renamed the article


@dataclass(frozen=True, slots=True)
class Renamed:
    """An article's title changed by the reader: what it was, what it is, and whether it is the
    source's own again (renaming to "" or to the source's title gives that back)."""

    article_id: int
    before: str
    title: str
    from_source: bool


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    path: str
    # new_version: updated in place; skipped: a file of another type inside a folder
    status: Literal["imported", "already", "new_version", "refused", "skipped"]
    message: str
    article_id: int | None = None
    units: int = 0
    count_notice: CountNotice | None = None  # no unit, or few for its length: why (in `message` too)


@dataclass(frozen=True, slots=True)
class CurationUndo:
    """What an undo in Triage or the Article did. `unit_id`: the unit it is about (a batch's
    first). `changed_since`: the unit was changed after the step (answered, tagged in Browse,
    edited again), so nothing was put back: an undo never takes back a later change. `left`:
    units of a batch changed since, left as they are while the others went back."""

    unit_id: int
    changed_since: bool = False
    left: int = 0
    action: str = ""  # the step's ("make": a card you made, now in the trash)

    def notice(self) -> str:
        if self.changed_since:
            return "Not undone: the unit was changed after that step (answered, tagged or edited), so it stays as it is"
        if self.action == "make" and not self.left:
            return "Undone: the card you made is in the trash (restore brings it back)"
        said = f"Undone: {_STEP_WORDS.get(self.action, self.action.replace('_', ' '))}".rstrip(": ")
        if self.left:
            return f"{said} · {self.left} unit{'s' if self.left != 1 else ''} changed since left as they are"
        return said


# How a curation step is named when it is undone ("Undone: reject"), where its stored name is not
# the word (core/storage/curation.py records the step's name).
_STEP_WORDS = {"keep_anyway": "keep anyway", "evidence": "evidence change", "trash": "move to the trash"}
