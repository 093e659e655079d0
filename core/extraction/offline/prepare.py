"""The candidate sentences of a document, each with the unit it would make.

Every prose sentence is analysed (terms for salience), given the content a unit would show
(standalone.py) and the quote that proves it, and marked eligible or not (eligible.py). A
sentence that opens on a pronoun or linking word it cannot resolve is never proposed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.domain import NON_EVIDENCE_KINDS, SourceDocument
from core.domain.stop import StopFlag, check_stop
from core.extraction.offline.eligible import negated_lead_in, paragraph_problem, sentence_problem
from core.extraction.offline.segment import Sentence, analyse, is_traditional, split_sentences
from core.extraction.offline.standalone import name_authors, needs_context, plain_content, resolve_pronoun
from core.text import detect_language

_ENDS = re.compile(r"[.!?。！？；;…]['\"”’)）」』]*$")
MAX_SENTENCES = 20000  # beyond this a document is scored on its first sentences only
STOP_EVERY = 500  # sentences analysed between two reads of the stop flag (~10 ms of work)


NEEDS_CONTEXT = "leans on the sentence before"  # a Sentence.problem: an antecedent it cannot quote
NEGATED_LIST = "list"  # a skipped paragraph: an item of a list introduced by a negation


@dataclass(frozen=True, slots=True)
class Prepared:
    """The document's prose sentences, and the paragraphs that hold none with the reason
    (eligible.paragraph_problem's, or NEGATED_LIST): what the unit count weighs."""

    sentences: list[Sentence]
    skipped: tuple[tuple[str, str], ...]  # (paragraph_id, reason), in document order


def sentences(document: SourceDocument, stop: StopFlag | None = None) -> list[Sentence]:
    return read(document, stop).sentences


def read(document: SourceDocument, stop: StopFlag | None = None) -> Prepared:
    out: list[Sentence] = []
    skipped: list[tuple[str, str]] = []
    rank = 0
    last: Sentence | None = None
    sample = "".join(p.text for p in document.paragraphs[:200] if p.kind not in NON_EVIDENCE_KINDS)
    traditional = is_traditional(sample)
    cased = any(c.isupper() for c in sample[:2000])
    lead_in = ""
    for p in document.paragraphs:
        after, lead_in = lead_in, p.text
        problem = paragraph_problem(p.text, p.kind, NON_EVIDENCE_KINDS)
        if problem is not None:
            skipped.append((p.paragraph_id, problem))
            last = None  # a heading or a code block between: no antecedent across it
            continue
        if p.kind == "list" and negated_lead_in(after):
            skipped.append((p.paragraph_id, NEGATED_LIST))
            last = None  # "X does not:" then items: an item alone would say the opposite
            continue
        lang = detect_language(p.text)
        previous = last if last is not None and last.lang == lang else None  # the paragraph before
        for i, (a, b) in enumerate(split_sentences(p.text, lang)):
            s = Sentence(p.paragraph_id, rank, i, p.text[a:b], lang, traditional=traditional, start=a, end=b)
            analyse(s)
            stand_alone(s, previous, p.text, cased)
            out.append(s)
            previous = s
            if len(out) % STOP_EVERY == 0:
                check_stop(stop)
            if len(out) >= MAX_SENTENCES:
                return Prepared(out, tuple(skipped))
        rank += 1
        last = previous
    return Prepared(out, tuple(skipped))


def stand_alone(s: Sentence, previous: Sentence | None, paragraph: str, cased: bool = True) -> None:
    """Fill the unit's content and quote for a sentence, and whether it may be a unit. A
    sentence that opens on a pronoun or a linking word it cannot resolve is never a unit: a card
    that needs the sentence before is not one fact (two sentences glued were rejected by
    readers as overloaded: "The park has lanes ... There are 13 natural reserves ...")."""
    s.quote, s.quote_start = s.text, s.start
    line_end = s.end >= len(paragraph.rstrip()) or paragraph[s.end : s.end + 1] == "\n"
    problem = sentence_problem(s.text, s.lang, line_end, cased)
    content = name_authors(plain_content(s.text))
    if problem is None and not _ENDS.search(content):
        content += "。" if s.lang == "zh" else "."  # a line the writer left without a full stop
    resolved = resolve_pronoun(content, previous.content if previous else None)
    s.problem = problem or ""
    if resolved is not None and not needs_context(resolved):
        s.content, s.eligible = resolved, problem is None
        return
    s.content, s.eligible = content, False
    if problem is None:
        s.problem = NEEDS_CONTEXT
