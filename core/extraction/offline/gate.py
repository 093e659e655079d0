"""The last gate of the offline extractor: near-duplicates merged before the validator sees
them, and whatever breaks an error rule of the validator dropped, never shipped."""

from __future__ import annotations

from core.domain import ArticleMemoryOutput, CoreIdea, RecallQuestion, SourceDocument
from core.extraction.offline import salience
from core.extraction.offline.segment import Sentence
from core.validation import Repeats, validate


def dedupe(items: list[salience.Scored]) -> list[salience.Scored]:
    """Items in their order of choice without repeats: the same or nearly the same content (the
    validator's one repeat rule, Repeats), or a quote overlapping one already kept."""
    kept: list[salience.Scored] = []
    repeats = Repeats()
    for item in items:
        content = item.sentence.content
        if repeats.repeated(content) or any(_overlap(item.sentence, k.sentence) for k in kept):
            continue
        kept.append(item)
        repeats.add_text(content)
    return kept


def _overlap(a: Sentence, b: Sentence) -> bool:
    """Two units quote some of the same text."""
    return a.paragraph_id == b.paragraph_id and a.quote_start < b.end and b.quote_start < a.end


class Across:
    """The units kept so far from a document's parts (each part's picks deduped already): a
    pick that quotes text a kept unit quotes, or that the validator calls a repeat of one
    (Repeats: indexed, so a book's hundreds of units are not compared pair by pair), is not
    fresh; the earlier part keeps its unit and the later takes its next pick."""

    def __init__(self) -> None:
        self._repeats = Repeats()
        self._quoted: dict[str, list[tuple[int, int]]] = {}  # paragraph -> spans kept units quote
        self._bags: list[frozenset[str]] = []  # each kept unit's terms
        self._by_term: dict[str, list[int]] = {}

    def fresh(self, item: salience.Scored) -> bool:
        s = item.sentence
        if any(s.quote_start < y1 and y0 < s.end for y0, y1 in self._quoted.get(s.paragraph_id, ())):
            return False
        return not self._repeats.repeated(s.content) and not self._same_fact(frozenset(s.terms))

    def _same_fact(self, bag: frozenset[str]) -> bool:
        """Its terms are mostly a kept unit's (the same pledge told three times in other words,
        which readers found as three cards): SAME_FACT of the two sets' terms together
        (Jaccard), five terms at least ("第二个阶段称为卡尔文循环" shares three of four with a
        longer sentence about the two stages, and is another fact)."""
        if len(bag) < 5:
            return False
        near = {k for t in bag for k in self._by_term.get(t, ())}
        return any(len(bag & self._bags[k]) >= SAME_FACT * len(bag | self._bags[k]) for k in near)

    def keep(self, item: salience.Scored) -> None:
        s = item.sentence
        self._repeats.add_text(s.content)
        self._quoted.setdefault(s.paragraph_id, []).append((s.quote_start, s.end))
        bag = frozenset(s.terms)
        for t in bag:
            self._by_term.setdefault(t, []).append(len(self._bags))
        self._bags.append(bag)


SAME_FACT = 0.5  # share of two units' terms they have in common: the same fact


def gate(output: ArticleMemoryOutput, document: SourceDocument) -> ArticleMemoryOutput:
    """Drop whatever breaks an error rule of the validator: such a question, such a unit, and a
    unit left without a question; the questions of the units kept are re-indexed."""
    report = validate(output, document)
    if report.ok:
        return output
    errors = [i for i in report.issues if i.severity == "error"]
    bad_questions = {i.question_index for i in errors if i.question_index is not None}
    questions_kept = [
        q
        for k, q in enumerate(output.recall_questions)
        if k not in bad_questions and q.question.strip() and q.expected_answer.strip()
    ]
    asked = {q.memory_unit_index for q in questions_kept}
    bad_units = {i.unit_index for i in errors if i.unit_index is not None}
    keep = [i for i in range(len(output.memory_units)) if i not in bad_units and i in asked]
    remap = {old: new for new, old in enumerate(keep)}
    units = tuple(output.memory_units[i] for i in keep)
    questions = tuple(
        RecallQuestion(q.question, q.expected_answer, remap[q.memory_unit_index], q.kind)
        for q in questions_kept
        if q.memory_unit_index in remap
    )
    bad_ideas = {i.index_in("core_ideas") for i in errors}
    ideas: tuple[CoreIdea, ...] = tuple(
        idea for j, idea in enumerate(output.core_ideas) if j not in bad_ideas
    )
    cleaned = ArticleMemoryOutput(output.summary, ideas, units, questions)
    if validate(cleaned, document).ok:
        return cleaned
    return ArticleMemoryOutput(output.summary, (), (), ())
