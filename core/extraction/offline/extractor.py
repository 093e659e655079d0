"""The offline extractor: the embedded default, no model and no network.

parse (done by ingest) -> sentences, terms and the unit each would make (prepare.py) -> how
many units and from which parts (budget.py) -> salience -> MMR selection over the eligible ones
of each part -> typed units with tags (tags.py), confidence
and recall questions (questions.py: a cloze on the learned blank, a Q&A where the sentence has
a form for one) -> core ideas and an extractive summary -> the validator as a last gate
(gate.py: what breaks an error rule is dropped, never shipped) -> a notice when the article
got no unit or few for its length (holdings.py). Deterministic: no randomness, and every tie
is broken by document order.
"""

from __future__ import annotations

from dataclasses import replace

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
from core.extraction.offline import (
    blank_model,
    budget,
    clause,
    cues,
    facts,
    holdings,
    prepare,
    salience,
    tags,
)
from core.extraction.offline.candidates import DocCounts
from core.extraction.offline.context import ArticleContext, context_of
from core.extraction.offline.gate import Across, dedupe, gate
from core.extraction.offline.ideas import core_ideas, summary
from core.extraction.offline.questions import fresh_blank, qa_question, questions_for
from core.extraction.offline.segment import Sentence
from core.validation.cards import topic_terms_of


class OfflineExtractor:
    """Extractor protocol implementation (see core.extraction.base.Extractor)."""

    name = "offline"
    version = "1.0"

    def __init__(self, max_units: int | None = None, **_: object) -> None:
        """`max_units`: propose that many units (fewer when the text has fewer distinct
        sentences) instead of the length rule (budget.py: about 3-12 for an article, more with
        no cap for a long text); used to measure quality against budget."""
        if max_units is not None and (
            not isinstance(max_units, int) or isinstance(max_units, bool) or max_units < 1
        ):
            raise ValueError(f"max_units must be a whole number of at least 1, not {max_units!r}")
        self.max_units = max_units

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult:
        try:
            prepared = prepare.read(document, stop)
            check_stop(stop)
            output = self._extract(document, prepared.sentences, stop)
            notice = holdings.count_notice(document, prepared, len(output.memory_units))
        except Cancelled:
            raise
        except Exception as exc:  # never raise on odd text: report and return nothing
            empty = ArticleMemoryOutput("", (), (), ())
            return ExtractionResult(
                empty, self.name, self.version, notices=(f"offline extractor failed: {exc!r}",)
            )
        return ExtractionResult(output, self.name, self.version, count_notice=notice)

    def _extract(
        self, document: SourceDocument, found: list[Sentence], stop: StopFlag | None
    ) -> ArticleMemoryOutput:
        if not found:
            return ArticleMemoryOutput("", (), (), ())
        lang = "zh" if document.language == "zh" else "en"
        context = context_of(document, found)
        topics = tags.article_topics(document, found)
        units: list[MemoryUnit] = []
        questions: list[RecallQuestion] = []
        kept: list[salience.Scored] = []
        chosen = self._choose(document, found, context, stop)
        for index, (item, content, qs) in enumerate(_cards(chosen, context, stop)):
            s = item.sentence
            kind = cues.memory_type(s.content)
            confidence = _confidence(item.score, cues.cue_strength(s.content), len(s.terms))
            evidence: tuple[EvidenceSpan, ...] = (EvidenceSpan(s.paragraph_id, s.quote),)
            units.append(
                MemoryUnit(content, kind, evidence, tags.unit_tags(content, s.lang, topics), confidence)
            )
            asked = {q.question for q in questions if q.kind == "qa"}
            questions.extend(  # the same Q&A twice in a deck ("What is Jacksonville?") is asked once
                replace(q, memory_unit_index=index) for q in qs if q.kind != "qa" or q.question not in asked
            )
            kept.append(item)
        ideas = core_ideas(kept, {x.order: u.tags for x, u in zip(kept, units, strict=True)})
        output = ArticleMemoryOutput(summary(kept, lang), ideas, tuple(units), tuple(questions))
        return gate(output, document)

    def _choose(
        self, document: SourceDocument, found: list[Sentence], context: ArticleContext, stop: StopFlag | None
    ) -> list[tuple[int, list[salience.Scored]]]:
        """Each part's share of the count (budget.py: from the substantive text) and its picks
        by salience and MMR inside the part, twice the share (the rest in reserve), those that
        can be asked about no fact weighed down (_weigh_facts)."""
        # the text proposed from sets the count (a reimport proposes from its new paragraphs
        # only, with the whole article around them as context: SourceDocument.proposable)
        size = sum(budget.substance(s) for s in found if document.proposable(s.paragraph_id))
        candidates = sum(1 for s in found if s.eligible and document.proposable(s.paragraph_id))
        k = budget.unit_count(size, candidates, self.max_units)
        idf = salience.idf_table(found)
        locators = {p.paragraph_id: p.locator for p in document.paragraphs}
        picks: list[tuple[int, list[salience.Scored]]] = []
        for part in budget.parts(found, locators, k):
            if part.units <= 0:
                continue
            check_stop(stop)
            prose = len({s.paragraph_id for s in part.sentences})
            scored = salience.score_sentences(part.sentences, idf, prose, part.first)
            pool = [x for x in scored if x.sentence.eligible and document.proposable(x.sentence.paragraph_id)]
            pool = _weigh_facts(pool, 4 * part.units, context.counts, context.frequent)
            picks.append((part.units, dedupe(salience.select(pool, 2 * part.units))))
        return picks


def _cards(
    parts: list[tuple[int, list[salience.Scored]]], context: ArticleContext, stop: StopFlag | None
) -> list[tuple[salience.Scored, str, list[RecallQuestion]]]:
    """Each part's share of units with their questions (numbered 0: the caller numbers them),
    in document order. A pick is taken while its part wants more, unless an earlier part's
    unit repeats it or nothing in it can be asked (then the part's next pick is)."""
    across = Across()
    asked: set[str] = set()  # the terms of the answers already blanked in this article
    made: list[tuple[salience.Scored, str, list[RecallQuestion]]] = []
    for share, picks in parts:
        check_stop(stop)
        taken = 0
        for item in picks:
            if taken >= share:
                break
            if not across.fresh(item):
                continue
            s = item.sentence
            done = frozenset(asked)  # an answer is blanked once per deck
            content = _card_content(s.content, s.lang, context.counts, context.frequent, done)
            qs = questions_for(0, content, s.lang, s.traditional, context.counts, context.frequent, done)
            if not qs:
                continue  # nothing in it can be asked: not worth a card
            asked.update(t for q in qs if q.kind == "cloze" for t in topic_terms_of(q.expected_answer))
            across.keep(item)
            made.append((item, content, qs))
            taken += 1
    return sorted(made, key=lambda m: m[0].order)


WEAK = 0.75  # what a sentence that offers no fact to ask weighs against one that does


def _weigh_facts(
    pool: list[salience.Scored], most: int, counts: DocCounts, frequent: frozenset[str]
) -> list[salience.Scored]:
    """The `most` best candidates (what MMR picks from) weighed down by WEAK when their card could
    hide no quantity, name or term and they have no Q&A form: a sentence that offers only a
    common phrase to blank made cards blind readers deleted. Salience and MMR still choose."""
    best = sorted(pool, key=lambda x: (-x.score, x.order))[:most]
    weighed = []
    for item in best:
        s = item.sentence
        level = blank_model.best_tier(s.content, s.lang, counts, frequent)
        asks = level <= facts.TERM or qa_question(s.content, s.lang, s.traditional) is not None
        weighed.append(item if asks else salience.Scored(s, item.score * WEAK, item.order))
    return weighed


def _card_content(
    content: str, lang: str, counts: DocCounts, frequent: frozenset[str], asked: frozenset[str]
) -> str:
    """The unit's content as its card shows it: a long sentence cut to the clause that holds
    its best blank (clause.py); the evidence stays the whole sentence."""
    found = fresh_blank(content, lang, counts, frequent, asked)
    return clause.shorten(content, lang, (found[1].start, found[1].end) if found else None)


def _confidence(score: float, cue: float, terms: int) -> float:
    """Heuristic chance that a reader keeps the unit: salience, cue clarity and substance."""
    substance = min(terms, 8) / 8
    value = 0.25 + 0.4 * score + 0.15 * cue + 0.15 * substance
    return round(min(0.95, max(0.05, value)), 3)
