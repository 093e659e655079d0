"""What a card of yours (core/services/authoring.py) is checked by, and where the card writer
cuts its text: the validator on a reader's card (`check_unit`: grounding, the card rules as
warnings, the claims), the refusal of one with an error (`CannotMake`), the paragraphs a card
cites (read alone: grounding needs only them), the sentence a cloze blanks and the break a
split cuts at. Functions of the text and one read each: apart from the service, which keeps the
articles it read and stores the cards, so that each file has one job.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.domain import (
    ArticleMemoryOutput,
    EvidenceSpan,
    MemoryUnit,
    RecallQuestion,
    SelectedSpan,
    SourceDocument,
    StoredUnit,
    ValidationReport,
)
from core.domain.errors import MemoryRushError
from core.storage import library as library_repo
from core.validation import validate

Questions = Sequence[tuple[str, str, str]]  # (question, answer, kind)


class CannotMake(MemoryRushError):
    """The card would break an error rule (a quote not in the text, a contradiction): nothing
    was saved; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Wording:
    """A unit with its questions as the reader words it: what make() and cloze() check and store
    (its cards are made once it is stored: core.domain.card)."""

    content: str
    memory_type: str
    tags: Sequence[str]
    questions: Questions


def cited_paragraphs(article_id: int, spans: Sequence[SelectedSpan]) -> SourceDocument:
    """The paragraphs the spans cite (one read), as the document a card is checked against:
    grounding needs only them; the article-wide rule takes the kept topic terms."""
    paragraphs = tuple(library_repo.paragraphs_by_id(article_id, [s.paragraph_id for s in spans]))
    return SourceDocument("", "", "", paragraphs)


def stored_unit(unit_id: int) -> StoredUnit:
    """The unit a fix works on, as stored now (gone: an error that says so)."""
    unit = library_repo.unit(unit_id)
    if unit is None:
        raise MemoryRushError(f"unit {unit_id} no longer exists")
    return unit


def split_point(content: str) -> tuple[str, str] | None:
    """The content in two at the sentence break nearest its middle, else at the clause break
    (; , ； ，) nearest it; None when it has neither."""
    from core.extraction.offline.sentences import split_sentences
    from core.text.cjk import HAN_RE

    text = content.strip()
    lang = "zh" if HAN_RE.search(text) else "en"
    cuts = [b for _, b in split_sentences(text, lang)][:-1]
    if not cuts:
        cuts = [m.end() for m in re.finditer(r"[;,；，、]\s*", text) if m.end() < len(text)]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - len(text) / 2))
    first, second = text[:cut].strip().rstrip(";,；，、"), text[cut:].strip()
    return (first, second) if first and second else None


def check_unit(
    document: SourceDocument, content: str, memory_type: str, tags: Sequence[str],
    evidence: tuple[EvidenceSpan, ...], questions: Questions, *, topics: frozenset[str] | None = None,
) -> ValidationReport:  # fmt: skip
    """A reader's card against its article: grounding, the card rules (warnings), the claims.
    `document` may be only the cited paragraphs when `topics` are the article's."""
    unit = MemoryUnit(content.strip(), memory_type, evidence, tuple(tags), 1.0)
    asked = tuple(RecallQuestion(q.strip(), a.strip(), 0, k) for q, a, k in questions)
    output = ArticleMemoryOutput("", (), (unit,), asked)
    return validate(output, document, authored=True, topics=topics)


def refuse_errors(report: ValidationReport) -> None:
    errors = [i.message for i in report.issues if i.severity == "error" and not i.kept]
    if errors:
        raise CannotMake("not saved: " + "; ".join(errors))


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentences of `text` that the span (start, end) touches."""
    from core.extraction.offline.sentences import split_sentences
    from core.text.cjk import HAN_RE

    lang = "zh" if HAN_RE.search(text) else "en"
    touched = [(a, b) for a, b in split_sentences(text, lang) if a < end and start < b]
    if not touched:
        return start, end
    return min(touched[0][0], start), max(touched[-1][1], end)
