"""The offline extractor: the embedded default, no model and no network.

parse (done by ingest) -> sentences, terms and the unit each would make (prepare.py) ->
salience -> MMR selection over the eligible ones -> typed units with tags (tags.py), confidence
and recall questions (questions.py: a cloze on the learned blank, a Q&A where the sentence has
a form for one) -> core ideas and an extractive summary -> the validator as a last gate
(gate.py: what breaks an error rule is dropped, never shipped). Deterministic: no
randomness, and every tie is broken by document order.
"""

from __future__ import annotations

from core.domain import (
    ArticleMemoryOutput,
    EvidenceSpan,
    ExtractionResult,
    MemoryUnit,
    RecallQuestion,
    SourceDocument,
)
from core.domain.errors import Cancelled
from core.domain.stop import StopFlag, check_stop
from core.extraction.offline import blank_model, clause, cues, facts, prepare, salience, tags
from core.extraction.offline.candidates import DocCounts
from core.extraction.offline.context import context_of
from core.extraction.offline.gate import dedupe, gate
from core.extraction.offline.ideas import core_ideas, summary
from core.extraction.offline.questions import qa_question, questions_for


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

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult:
        try:
            output = self._extract(document, stop)
        except Cancelled:
            raise
        except Exception as exc:  # never raise on odd text: report and return nothing
            empty = ArticleMemoryOutput("", (), (), ())
            return ExtractionResult(
                empty, self.name, self.version, notices=(f"offline extractor failed: {exc!r}",)
            )
        return ExtractionResult(output, self.name, self.version)

    def _extract(self, document: SourceDocument, stop: StopFlag | None) -> ArticleMemoryOutput:
        found = prepare.sentences(document, stop)
        check_stop(stop)
        if not found:
            return ArticleMemoryOutput("", (), (), ())
        idf = salience.idf_table(found)
        prose = len({s.paragraph_id for s in found})
        scored = salience.score_sentences(found, idf, prose)
        pool = [x for x in scored if x.sentence.eligible and document.proposable(x.sentence.paragraph_id)]
        lang = "zh" if document.language == "zh" else "en"
        # the length of the text proposed from sets the count, its ideas cap it
        total = sum(len(s.text) for s in found if document.proposable(s.paragraph_id))
        k = salience.unit_count(total, len(pool), lang, self.max_units)
        context = context_of(document, found)
        counts, frequent = context.counts, context.frequent
        picked = dedupe(salience.select(pool, 2 * k))
        chosen = sorted(_with_facts_first(picked, counts, frequent)[:k], key=lambda x: x.order)
        topics = tags.article_topics(counts.counts, lang)
        units: list[MemoryUnit] = []
        questions: list[RecallQuestion] = []
        kept: list[salience.Scored] = []
        for item in chosen:
            s = item.sentence
            content = _card_content(s.content, s.lang, counts, frequent)
            qs = questions_for(len(units), content, s.lang, s.traditional, counts, frequent)
            if not qs:
                continue  # nothing in it can be asked: not worth a card
            kind = cues.memory_type(s.content)
            confidence = _confidence(item.score, cues.cue_strength(s.content), len(s.terms))
            evidence: tuple[EvidenceSpan, ...] = (EvidenceSpan(s.paragraph_id, s.quote),)
            units.append(
                MemoryUnit(content, kind, evidence, tags.unit_tags(content, s.lang, topics), confidence)
            )
            questions.extend(qs)
            kept.append(item)
        ideas = core_ideas(kept, {x.order: u.tags for x, u in zip(kept, units, strict=True)})
        output = ArticleMemoryOutput(summary(kept, lang), ideas, tuple(units), tuple(questions))
        return gate(output, document)


def _with_facts_first(
    picked: list[salience.Scored], counts: DocCounts, frequent: frozenset[str]
) -> list[salience.Scored]:
    """The picks in their order, those whose card can hide a quantity, a name or a term, or
    that have a Q&A form (a definition, a cause, a date), first:
    a sentence that offers only a common phrase to blank ("The TSA called the ____
    deplorable." -> "incident") made cards blind readers deleted."""
    strong: list[salience.Scored] = []
    weak: list[salience.Scored] = []
    for item in picked:
        s = item.sentence
        level = blank_model.best_tier(s.content, s.lang, counts, frequent)
        asks = level <= facts.TERM or qa_question(s.content, s.lang, s.traditional) is not None
        (strong if asks else weak).append(item)
    return strong + weak


def _card_content(content: str, lang: str, counts: DocCounts, frequent: frozenset[str]) -> str:
    """The unit's content as its card shows it: a long sentence cut to the clause that holds
    its best blank (clause.py); the evidence stays the whole sentence."""
    found = blank_model.pick(content, lang, counts, frequent)
    return clause.shorten(content, lang, (found[1].start, found[1].end) if found else None)


def _confidence(score: float, cue: float, terms: int) -> float:
    """Heuristic chance that a reader keeps the unit: salience, cue clarity and substance."""
    substance = min(terms, 8) / 8
    value = 0.25 + 0.4 * score + 0.15 * cue + 0.15 * substance
    return round(min(0.95, max(0.05, value)), 3)
