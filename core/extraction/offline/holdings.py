"""What a text holds besides prose that may become units, and the notice that says so when an
article gets no unit, or far fewer than its length suggests (issue 30).

The rest of the text is weighed in units' worth (budget.worth) by the reason it holds no unit:
a paragraph that is not prose (eligible.paragraph_problem: code, a table, a heading, a list of
links) or a sentence that may not be one (eligible.sentence_problem: navigation, a caption,
quoted talk, a question ...). The notice names what most of the rest is.
"""

from __future__ import annotations

from collections import defaultdict

from core.domain import CountNotice, SourceDocument
from core.extraction.offline import budget
from core.extraction.offline.prepare import NEEDS_CONTEXT, NEGATED_LIST, Prepared

# A paragraph's or a sentence's reason -> how the notice names that part of the text.
REST = {
    "code": "code",
    "table": "tables",
    "contents": "contents and indexes",
    "heading": "headings",
    "navigation": "navigation and captions",
    "links": "lists of links",
    "markup": "markup",
    NEGATED_LIST: "lists",
    "length": "fragments",
    "not a sentence": "fragments",
    "question": "questions",
    "navigation or caption": "navigation and captions",
    "first-person anecdote": "first-person anecdotes",
    "instruction or fragment": "instructions",
    "quoted chatter": "quoted talk",
    NEEDS_CONTEXT: "sentences that lean on the one before",
}
FEWER = 0.5  # a notice when the units are fewer than this share of what the length suggests
MISSING = 3  # ... and at least this many fewer
NAMED = 3  # at most this many parts of the rest named
COVER = 2 / 3  # named until they hold this share of the rest


LOST = "sentences that repeat one another or make no card"  # prose the count had, no unit
LINKS = "lists of links"
LINKED = 0.4  # a paragraph whose links (a web page's, spans) cover this share is a link list


def rest_of(document: SourceDocument, prepared: Prepared) -> dict[str, float]:
    """Units' worth of the text that holds no unit, by what it is (REST's names), most first
    (ties in the order met). What is not prose in a paragraph mostly of links (a web page's
    index or menu) counts as a list of links."""
    rest: defaultdict[str, float] = defaultdict(float)
    lang = "zh" if document.language == "zh" else "en"
    paragraphs = {p.paragraph_id: p for p in document.paragraphs}
    links = {
        p.paragraph_id
        for p in document.paragraphs
        if p.text and sum(s.end - s.start for s in p.spans if s.kind == "link") > LINKED * len(p.text)
    }
    for paragraph_id, reason in prepared.skipped:
        p = paragraphs.get(paragraph_id)
        name = LINKS if paragraph_id in links else REST.get(reason, "markup")
        rest[name] += budget.worth(len(p.text) if p else 0, lang)
    for s in prepared.sentences:
        if not s.eligible:
            name = LINKS if s.paragraph_id in links else REST.get(s.problem, "fragments")
            rest[name] += budget.worth(len(s.text), s.lang)
    return dict(sorted(rest.items(), key=lambda kv: -kv[1]))


def count_notice(document: SourceDocument, prepared: Prepared, units: int) -> CountNotice | None:
    """The notice for an article that got `units`: None unless it got none, or fewer than FEWER
    of what its whole length would give (at least MISSING fewer)."""
    rest = rest_of(document, prepared)
    found = prepared.sentences
    prose = sum(1 for s in found if s.eligible)
    substantive = sum(budget.substance(s) for s in found)
    suggested = budget.unit_count(substantive + sum(rest.values()), len(found) + len(prepared.skipped))
    if not document.paragraphs or _enough(units, suggested):
        return None
    named: list[str] = []
    if prose and not _enough(units, budget.unit_count(substantive, prose)):
        named.append(LOST)  # the prose was there: its sentences were lost on the way
    held = 0.0
    whole = sum(rest.values())
    for name, amount in list(rest.items())[: NAMED - len(named)]:
        if held >= COVER * whole:
            break
        named.append(name)
        held += amount
    return CountNotice(units, max(suggested, units), prose, tuple(named))


def _enough(units: int, expected: int) -> bool:
    return units > 0 and (units >= FEWER * expected or expected - units < MISSING)
