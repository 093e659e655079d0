"""The offline extractor: the embedded default, no model and no network.

parse (done by ingest) -> sentences and terms -> salience -> MMR selection -> typed units with
tags, confidence and recall questions -> core ideas and an extractive summary -> the validator
as a last gate (a unit it rejects is dropped, never shipped). Deterministic: no randomness, and
every tie is broken by document order.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from core.domain import (
    NON_EVIDENCE_KINDS,
    ArticleMemoryOutput,
    CoreIdea,
    EvidenceSpan,
    ExtractionResult,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
)
from core.extraction.offline import cues, salience
from core.extraction.offline.ideas import core_ideas, summary
from core.extraction.offline.questions import questions_for
from core.extraction.offline.segment import Sentence, analyse, is_traditional, split_sentences
from core.text import detect_language, normalize_for_match
from core.text.titles import looks_like_title
from core.validation import validate

MAX_SENTENCES = 20000  # beyond this a document is scored on its first sentences only
# Structure typed as plain text (when the reader did not tag it): headings, fences, tables,
# front matter, HTML. Never quoted.
_STRUCTURAL = re.compile(r"^(?:#{1,6}\s|```|~~~|\|.*\|\s*$|---|\+\+\+|<[a-zA-Z!/])")


class OfflineExtractor:
    """Extractor protocol implementation (see core.extraction.base.Extractor)."""

    name = "offline"
    version = "1.0"

    def __init__(self, max_units: int | None = None, **_: object) -> None:
        """`max_units`: propose that many units (fewer when the text has fewer distinct
        sentences) instead of the length rule (about 3-12); used to measure quality against budget."""
        if max_units is not None and (
            not isinstance(max_units, int) or isinstance(max_units, bool) or max_units < 1
        ):
            raise ValueError(f"max_units must be a whole number of at least 1, not {max_units!r}")
        self.max_units = max_units

    def extract(self, document: SourceDocument) -> ExtractionResult:
        try:
            output = self._extract(document)
        except Exception as exc:  # never raise on odd text: report and return nothing
            empty = ArticleMemoryOutput("", (), (), ())
            return ExtractionResult(
                empty, self.name, self.version, notices=(f"offline extractor failed: {exc!r}",)
            )
        return ExtractionResult(output, self.name, self.version)

    def _extract(self, document: SourceDocument) -> ArticleMemoryOutput:
        sentences = _sentences(document)
        if not sentences:
            return ArticleMemoryOutput("", (), (), ())
        idf = salience.idf_table(sentences)
        weights = salience.keyword_weights(sentences, idf)
        prose = len({s.paragraph_id for s in sentences})
        scored = salience.score_sentences(sentences, idf, prose)
        lang = "zh" if document.language == "zh" else "en"
        total = sum(len(s.text) for s in sentences)
        k = salience.unit_count(total, len(sentences), lang, self.max_units)
        chosen = sorted(_dedupe(salience.select(scored, 2 * k))[:k], key=lambda x: x.order)

        units: list[MemoryUnit] = []
        questions: list[RecallQuestion] = []
        kept: list[salience.Scored] = []
        for item in chosen:
            s = item.sentence
            kind = cues.memory_type(s.text)
            ranked = sorted(set(s.terms), key=lambda t: (-weights.get(t, 0.0), s.terms.index(t)))
            tags = tuple(dict.fromkeys(s.surfaces[t] for t in ranked[:4]))
            qs = questions_for(len(units), s, kind, ranked)
            confidence = _confidence(item.score, cues.cue_strength(s.text), len(s.terms))
            content = _clean(s.text)
            units.append(MemoryUnit(content, kind, (EvidenceSpan(s.paragraph_id, s.text),), tags, confidence))
            questions.extend(qs)
            kept.append(item)
        ideas = core_ideas(kept, weights)
        output = ArticleMemoryOutput(summary(kept, lang), ideas, tuple(units), tuple(questions))
        return _gate(output, document)


def _sentences(document: SourceDocument) -> list[Sentence]:
    out: list[Sentence] = []
    rank = 0
    sample = "".join(p.text for p in document.paragraphs[:200] if p.kind not in NON_EVIDENCE_KINDS)
    traditional = is_traditional(sample)
    for p in document.paragraphs:
        text = p.text
        if p.kind in NON_EVIDENCE_KINDS or not text.strip() or _STRUCTURAL.match(text.lstrip()):
            continue
        if p.kind == "paragraph" and looks_like_title(text):  # a title or heading typed as plain text
            continue
        lang = detect_language(text)
        for i, (a, b) in enumerate(split_sentences(text, lang)):
            s = Sentence(p.paragraph_id, rank, i, text[a:b], lang, traditional=traditional)
            analyse(s)
            out.append(s)
            if len(out) >= MAX_SENTENCES:
                return out
        rank += 1
    return out


_MARKUP = re.compile(r"(?<!\w)(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")


def _clean(text: str) -> str:
    """The unit's content: the quote without list bullets and inline markdown emphasis."""
    cleaned = _MARKUP.sub(r"\2", _BULLET.sub("", text)).strip()
    return cleaned or text


def _dedupe(items: list[salience.Scored]) -> list[salience.Scored]:
    kept: list[salience.Scored] = []
    norms: list[str] = []
    for item in items:
        n = normalize_for_match(item.sentence.text)
        if any(n == m or _near(n, m) for m in norms):
            continue
        kept.append(item)
        norms.append(n)
    return kept


def _near(a: str, b: str) -> bool:
    """The validator's near-duplicate rule, applied before it can complain."""
    if min(len(a), len(b)) < 12 or abs(len(a) - len(b)) > 0.2 * max(len(a), len(b)):
        return False
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.85


def _confidence(score: float, cue: float, terms: int) -> float:
    """Heuristic chance that a reader keeps the unit: salience, cue clarity and substance."""
    substance = min(terms, 8) / 8
    value = 0.25 + 0.4 * score + 0.15 * cue + 0.15 * substance
    return round(min(0.95, max(0.05, value)), 3)


def _gate(output: ArticleMemoryOutput, document: SourceDocument) -> ArticleMemoryOutput:
    """Drop whatever the validator rejects, re-indexing the questions of the units kept."""
    report = validate(output, document)
    if report.ok:
        return output
    bad_units = {i.unit_index for i in report.issues if i.unit_index is not None}
    keep = [i for i in range(len(output.memory_units)) if i not in bad_units]
    remap = {old: new for new, old in enumerate(keep)}
    units = tuple(output.memory_units[i] for i in keep)
    questions = tuple(
        RecallQuestion(q.question, q.expected_answer, remap[q.memory_unit_index], q.kind)
        for q in output.recall_questions
        if q.memory_unit_index in remap and q.question.strip() and q.expected_answer.strip()
    )
    bad_ideas = {i.location.split("]")[0] for i in report.issues if i.location.startswith("core_ideas[")}
    ideas: tuple[CoreIdea, ...] = tuple(
        idea for j, idea in enumerate(output.core_ideas) if f"core_ideas[{j}" not in bad_ideas
    )
    cleaned = ArticleMemoryOutput(output.summary, ideas, units, questions)
    if validate(cleaned, document).ok:
        return cleaned
    return ArticleMemoryOutput(output.summary, (), (), ())
