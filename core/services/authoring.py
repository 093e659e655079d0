"""Your own cards: units the reader makes from a selection, or from one of the article's core
ideas, with the card writer's forms (core/extraction/offline) and the validator's proof.

A unit you make is yours (`extractor == READER`, core/domain/export.py, the marker export,
search and stats read), confirmed at once with its cards created (so it is in today's session,
new-card limits allowing), and its making is a curation event: undo trashes it. Its evidence is
what you selected, checked by the validator as every quote is; the card rules are warnings for
you (`authored`), but a contradiction between your words and the quote is an error and nothing
is saved until it is fixed (or, in Triage, kept with a reason). A card that repeats one of your
own (the validator's repeat rule, against those quoting the same paragraphs) is saved with a
warning naming that unit, and the screen says so (249 repeats were made unnoticed).
What a card is checked by, and where the card writer cuts its text, is core/services/card_checks.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.domain import (
    READER,
    ArticleMemoryOutput,
    EvidenceSpan,
    SelectedSpan,
    SourceDocument,
    StoredQuestion,
    StoredUnit,
    ValidationReport,
)
from core.domain.artifact import output_from_dict, report_to_list
from core.domain.errors import MemoryRushError
from core.domain.undo import Scope
from core.services.card_checks import (
    CannotMake,
    Questions,
    Wording,
    check_unit,
    cited_paragraphs,
    refuse_errors,
    sentence_around,
    split_point,
    stored_unit,
)
from core.storage import authoring as authoring_repo
from core.storage import library as library_repo
from core.storage.authoring import NewUnit
from core.storage.db import write_transaction
from core.validation import repeat_issue
from core.validation.cards import topic_terms

if TYPE_CHECKING:  # the card writer is imported on first use (half a second at start-up)
    from core.extraction.offline.context import ArticleContext

BLANK = "____"  # the card writer's blank (core/extraction/offline/blank_model.py)


@dataclass(frozen=True, slots=True)
class Made:
    unit_id: int
    report: ValidationReport  # its warnings (errors refuse the card)
    repeats: str = ""  # "repeats unit 12" (or "nearly repeats"): the card was made before


@dataclass
class AuthoringService:
    clock: Callable[[], int]
    _contexts: dict[int, tuple[SourceDocument, ArticleContext]] = field(default_factory=dict)
    _documents: dict[int, tuple[tuple[int, int], SourceDocument]] = field(default_factory=dict)
    _topics: dict[int, tuple[tuple[int, int, int], frozenset[str]]] = field(default_factory=dict)

    # --- reading ---------------------------------------------------------------------------

    def document(self, article_id: int, fresh: Sequence[str] = ()) -> SourceDocument:
        """The article as the validator reads it, kept per article (reading 5,000 paragraphs
        takes ~80 ms): read again when its version or length changed, or when a paragraph of
        `fresh` (the ones a card quotes) is no longer the text kept."""
        info = library_repo.get_article(article_id)
        if info is None:
            raise MemoryRushError(f"article {article_id} no longer exists")
        key = (info.version, info.paragraph_count)
        kept = self._documents.get(article_id)
        if kept is not None and kept[0] == key and all(_same(article_id, kept[1], p) for p in fresh):
            return kept[1]
        paragraphs = tuple(library_repo.paragraphs(article_id))
        doc = SourceDocument(
            info.document_id, info.source_path, info.title, paragraphs, language=info.language
        )
        if len(self._documents) > 4:
            self._documents.clear()
        self._documents[article_id] = (key, doc)
        return doc

    def context(self, article_id: int) -> ArticleContext:
        """The card writer's view of the article (word counts, frequent terms), kept with the
        document it was computed from."""
        from core.extraction.offline.context import article_context

        doc = self.document(article_id)
        kept = self._contexts.get(article_id)
        if kept is None or kept[0] is not doc:
            if len(self._contexts) > 4:
                self._contexts.clear()
            kept = self._contexts[article_id] = (doc, article_context(doc))
        return kept[1]

    def topics(self, article_id: int) -> frozenset[str]:
        """The article's topic terms (the card rules' "the blank is a topic term"), kept per
        article: the first card of an article reads all of it (~300 ms on 5,000 paragraphs),
        the next ones read one row to see that it was not read again since."""
        key = library_repo.article_key(article_id)
        if key is None:
            raise MemoryRushError(f"article {article_id} no longer exists")
        kept = self._topics.get(article_id)
        if kept is None or kept[0] != key:
            terms = topic_terms(p.text for p in self.document(article_id).paragraphs)
            if len(self._topics) > 16:
                self._topics.clear()
            kept = self._topics[article_id] = (key, terms)
        return kept[1]

    def ready(self, article_id: int) -> bool:
        """Whether a card of this article saves in a few ms (its topic terms are kept and still
        those of its text: one indexed read of the article's key, as `topics` compares): else
        the first save reads the whole article, work for a thread (`topics` prepares it)."""
        kept = self._topics.get(article_id)
        return kept is not None and kept[0] == library_repo.article_key(article_id)

    def ideas(self, article_id: int) -> ArticleMemoryOutput | None:
        """The article's summary and core ideas, as its latest extraction stored them."""
        stored = library_repo.artifact_json(article_id)
        output = stored.get("output") if stored else None
        return output_from_dict(output) if isinstance(output, dict) else None

    # --- a cloze from a selection ------------------------------------------------------------

    def cloze(
        self,
        article_id: int,
        spans: Sequence[SelectedSpan],
        *,
        scope: Scope = Scope.CURATION,
    ) -> Made:
        """The selection is the blank; the unit is the sentence it is in (the sentences, when
        it runs over several), and that sentence is its evidence. One transaction reads the
        paragraph, checks the card against it and stores it (DatabaseBusy, nothing saved, when
        another process holds the write lock past the busy timeout; `scope`: where undo takes it
        back, the screen it was made in)."""
        if len(spans) != 1:
            raise CannotMake(
                "a cloze blanks words of one paragraph: select inside one paragraph (n makes a unit of more)"
            )
        span = spans[0]
        topics = self.topics(article_id)
        with write_transaction():
            cited = cited_paragraphs(article_id, spans)
            para = cited.paragraph(span.paragraph_id)
            if para is None or para.text[span.start : span.end] != span.text or not span.text.strip():
                raise CannotMake("the selection is not in the article's text any more: select it again")
            a, b = sentence_around(para.text, span.start, span.end)
            sentence = para.text[a:b]
            question = sentence[: span.start - a] + BLANK + sentence[span.end - a :]
            from core.extraction.offline import cues

            wording = Wording(sentence, cues.memory_type(sentence), (), ((question, span.text, "cloze"),))
            evidence = (SelectedSpan(span.paragraph_id, a, b, sentence),)
            return self._store(article_id, evidence, wording, cited, topics, scope)

    # --- a unit from a selection (the form opens on this draft) -----------------------------

    def draft(self, article_id: int, spans: Sequence[SelectedSpan]) -> StoredUnit:
        """A unit whose content is the selected text, typed and with questions by the card
        writer (a Q&A where the sentence has a form for one, and a cloze); not stored."""
        from core.extraction.offline import cues
        from core.extraction.offline.questions import questions_for

        text = " ".join(s.text.strip() for s in spans if s.text.strip())
        ctx = self.context(article_id)
        written = questions_for(0, text, ctx.lang, ctx.traditional(text), ctx.counts, ctx.frequent)
        questions = tuple(StoredQuestion(0, 0, q.question, q.expected_answer, q.kind) for q in written)
        evidence = tuple(EvidenceSpan(s.paragraph_id, s.text) for s in spans)
        return StoredUnit(
            0, article_id, 0, text, cues.memory_type(text), evidence, (), 1.0, "confirmed",
            questions, extractor=READER,
        )  # fmt: skip

    def check(
        self, article_id: int, spans: Sequence[SelectedSpan], *, content: str, memory_type: str,
        tags: Sequence[str], questions: Questions,
    ) -> ValidationReport:  # fmt: skip
        """The validator's report on a card as the form holds it (nothing saved): against the
        paragraphs it cites, with the article's topic terms."""
        evidence = tuple(EvidenceSpan(s.paragraph_id, s.text) for s in spans)
        topics = self.topics(article_id)
        cited = cited_paragraphs(article_id, spans)
        return check_unit(cited, content, memory_type, tags, evidence, questions, topics=topics)

    def make(
        self, article_id: int, spans: Sequence[SelectedSpan], *, content: str, memory_type: str,
        tags: Sequence[str], questions: Questions, scope: Scope = Scope.CURATION,
    ) -> Made:  # fmt: skip
        """Save a card you made: confirmed, its cards created, yours; refused (CannotMake, and
        nothing saved) while it has an error. One transaction reads the cited paragraphs,
        checks the card and stores it (a held lock as for cloze)."""
        wording = Wording(content, memory_type, tags, questions)
        topics = self.topics(article_id)
        with write_transaction():
            return self._store(article_id, spans, wording, cited_paragraphs(article_id, spans), topics, scope)

    def _store(
        self, article_id: int, spans: Sequence[SelectedSpan], wording: Wording, cited: SourceDocument,
        topics: frozenset[str], scope: Scope,
    ) -> Made:  # fmt: skip
        """Inside the caller's transaction: the card checked against `cited` (the paragraphs
        it quotes) and stored, or CannotMake when it has an error."""
        evidence = tuple(EvidenceSpan(s.paragraph_id, s.text) for s in spans)
        report = check_unit(
            cited,
            wording.content,
            wording.memory_type,
            wording.tags,
            evidence,
            wording.questions,
            topics=topics,
        )
        refuse_errors(report)
        made = library_repo.own_units_citing(article_id, [s.paragraph_id for s in spans])
        repeat = repeat_issue(wording.content, made, "warning")  # made again: warned, as extractors are
        report = ValidationReport((*report.issues, repeat)) if repeat else report
        unit = NewUnit(
            content=wording.content.strip(),
            memory_type=wording.memory_type,
            tags=tuple(t.strip() for t in wording.tags if t.strip()),
            evidence=tuple((s.paragraph_id, s.text) for s in spans),
            questions=tuple(
                (q.strip(), a.strip(), k) for q, a, k in wording.questions if q.strip() and a.strip()
            ),
            issues=tuple(report_to_list(report)),
            extractor=READER,
            status="confirmed",
        )
        unit_id = authoring_repo.insert_unit(article_id, unit, self.clock(), scope=scope)
        return Made(unit_id, report, repeat.message if repeat else "")

    def from_idea(self, article_id: int, index: int) -> Made:
        """A unit of core idea `index`: its words, its quotes, the card writer's questions."""
        output = self.ideas(article_id)
        if output is None or not 0 <= index < len(output.core_ideas):
            raise CannotMake("that core idea is no longer stored for this article")
        idea = output.core_ideas[index]
        spans = tuple(SelectedSpan(e.paragraph_id, 0, 0, e.quote) for e in idea.evidence)
        draft = self.draft(article_id, spans)
        content = idea.idea.strip() or draft.content
        from core.extraction.offline.questions import questions_for

        ctx = self.context(article_id)
        written = questions_for(0, content, ctx.lang, ctx.traditional(content), ctx.counts, ctx.frequent)
        return self.make(
            article_id, spans, content=content, memory_type=draft.memory_type, tags=(),
            questions=tuple((q.question, q.expected_answer, q.kind) for q in written),
        )  # fmt: skip

    # --- fixing a proposal ------------------------------------------------------------------

    def next_blank(self, unit_id: int) -> ValidationReport:
        """The unit's cloze blanks the card writer's next candidate for its sentence (best
        first, round again after the last; a unit without a cloze gets the best one). Saved
        as an edit (undo takes it back)."""
        from core.extraction.offline import blank_model

        unit = stored_unit(unit_id)
        ctx = self.context(unit.article_id)
        ranked = blank_model.ranked(unit.content, ctx.lang, ctx.counts, ctx.frequent)
        questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
        at = next((i for i, q in enumerate(questions) if q[2] == "cloze"), None)
        current = questions[at][1] if at is not None else None
        others = [c for c in ranked if c.text != current]
        if not others:
            raise CannotMake("the card writer has no other blank for this sentence: edit it (e) to pick one")
        now = next((i for i, c in enumerate(ranked) if c.text == current), -1)
        chosen = next((c for c in ranked[now + 1 :] if c.text != current), others[0])
        cloze = (blank_model.cloze_text(unit.content, chosen), chosen.text, "cloze")
        if at is None:
            questions.append(cloze)
        else:
            questions[at] = cloze
        return self._edit(unit, questions)

    def split(self, unit_id: int) -> int:
        """Split the unit in two at the sentence (or clause) break nearest its middle: it keeps
        the first part, a new unit beside it the second, each with the card writer's
        questions and the same evidence. One undoable step. Returns the new unit's id."""
        from core.extraction.offline.questions import questions_for

        unit = stored_unit(unit_id)
        parts = split_point(unit.content)
        if parts is None:
            raise CannotMake("one clause: nothing to split (edit it, e, to reword it)")
        ctx = self.context(unit.article_id)
        document = self.document(unit.article_id, [e.paragraph_id for e in unit.evidence])
        halves = []
        for part in parts:
            written = questions_for(0, part, ctx.lang, ctx.traditional(part), ctx.counts, ctx.frequent)
            asked = tuple((q.question, q.expected_answer, q.kind) for q in written)
            report = check_unit(document, part, unit.memory_type, unit.tags, unit.evidence, asked)
            halves.append(
                NewUnit(
                    content=part,
                    memory_type=unit.memory_type,
                    tags=unit.tags,
                    evidence=tuple((e.paragraph_id, e.quote) for e in unit.evidence),
                    questions=asked,
                    issues=tuple(report_to_list(report)),
                    extractor=unit.extractor,
                    status=unit.status,
                    confidence=unit.confidence,
                    model=unit.model,
                )
            )
        return authoring_repo.split(unit.id, halves[0], halves[1], self.clock())

    def set_evidence(self, unit_id: int, spans: Sequence[SelectedSpan]) -> ValidationReport:
        """The unit's evidence becomes the selection (re-checked; undo takes it back)."""
        unit = stored_unit(unit_id)
        if not spans:
            raise CannotMake("select the evidence first (v, then grow it)")
        evidence = tuple(EvidenceSpan(s.paragraph_id, s.text) for s in spans)
        questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
        document = self.document(unit.article_id, [s.paragraph_id for s in spans])
        report = check_unit(document, unit.content, unit.memory_type, unit.tags, evidence, questions)
        issues = report_to_list(report)
        authoring_repo.set_evidence(
            unit.id, [(e.paragraph_id, e.quote) for e in evidence], issues, self.clock()
        )
        return report

    def _edit(self, unit: StoredUnit, questions: Questions) -> ValidationReport:
        from core.services.curation import CurationService

        edited = CurationService(self.clock).edit(
            unit.id, content=unit.content, memory_type=unit.memory_type, tags=unit.tags, questions=questions
        )
        return edited.report


def _same(article_id: int, doc: SourceDocument, paragraph_id: str) -> bool:
    """Whether the kept document still has the stored text of this paragraph."""
    now = library_repo.paragraph_by_id(article_id, paragraph_id)
    kept = doc.paragraph(paragraph_id)
    return (None if now is None else now.text) == (None if kept is None else kept.text)
