"""The gate: proves every cited paragraph exists and every quote is really in it.

Pure (no I/O). Never raises on malformed input: every problem becomes a coded
`ValidationIssue` with a location. Works on domain objects; `validate_raw` accepts the
loosely-typed dicts an LLM produces.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Any, Literal

from core.domain import (
    MEMORY_TYPES,
    NON_EVIDENCE_KINDS,
    QUESTION_KINDS,
    ArticleMemoryOutput,
    SourceDocument,
    ValidationIssue,
    ValidationReport,
)
from core.text import normalize_for_match, replace_controls
from core.text.cjk import HAN_RE
from core.text.spans import quote_in_paragraph
from core.validation.access import as_list, get_field
from core.validation.cards import BLANK as CLOZE_BLANK
from core.validation.cards import card_issues
from core.validation.consistency import Severity, claim_issues, question_issues

NEAR_DUPLICATE_RATIO = 0.85  # one rule for the validator and the offline gate (it dropped at 0.85 before)
_TOKEN = re.compile(rf"{HAN_RE.pattern}|[^\W_]+|[^\w\s]")
NEAR_DUPLICATE_SPAN = 300  # near-duplicate comparison looks at this many leading characters


def _is_score(value: Any) -> bool:
    """A real number in [0, 1]: not a bool, not NaN (ints of any size compare without floats)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not (isinstance(value, float) and math.isnan(value)) and 0 <= value <= 1


def _blank(value: Any) -> bool:
    """Not text, or nothing once control characters are out (what the reader would be shown)."""
    return not isinstance(value, str) or not replace_controls(value, "").strip()


class _Collector:
    def __init__(self) -> None:
        self.issues: list[ValidationIssue] = []

    def add(self, code: str, message: str, location: str, severity: str = "error") -> None:
        self.issues.append(ValidationIssue(code, message, location, severity))  # type: ignore[arg-type]


def _check_evidence(
    c: _Collector, evidence: Any, where: str, paragraphs: Mapping[str, tuple[str, str]]
) -> None:
    if not isinstance(evidence, list | tuple) or not evidence:
        c.add("no_evidence", "has no evidence span", where)
        return
    for j, span in enumerate(evidence):
        loc = f"{where}.evidence[{j}]"
        pid = get_field(span, "paragraph_id")
        quote = get_field(span, "quote")
        if not isinstance(pid, str) or pid not in paragraphs:
            c.add("unknown_paragraph", f"cites paragraph {pid!r}, which does not exist", loc)
            continue
        text, kind = paragraphs[pid]
        if kind in NON_EVIDENCE_KINDS:
            c.add("non_prose_evidence", f"cites {pid}, a {kind} block, as evidence", loc)
        if _blank(quote):
            c.add("empty_quote", f"the quote from {pid} is empty", loc)
        elif not quote_in_paragraph(quote, text):
            c.add("quote_not_found", f"the quote is not in {pid}", loc)


def validate_raw(
    output: Any, document: SourceDocument, *, authored: bool = False, topics: frozenset[str] | None = None
) -> ValidationReport:
    """Validate an output given as domain objects or as plain dicts/lists (LLM JSON).

    Grounding and shape first, then the card rules (core/validation/cards.py); `authored`
    marks a reader's own edit, whose card rules are warnings. `document` may hold only the
    paragraphs the output cites when `topics` gives the whole article's topic terms (a card
    saved while reading: checking one paragraph, not 5,000)."""
    c = _Collector()
    paragraphs = {p.paragraph_id: (p.text, p.kind) for p in document.paragraphs}
    if output is None or not (isinstance(output, Mapping) or hasattr(output, "memory_units")):
        c.add("malformed", "the output is not an object", "output")
        return ValidationReport(tuple(c.issues))
    units = get_field(output, "memory_units")
    if not isinstance(units, list | tuple):
        c.add("malformed", "memory_units is not a list", "memory_units")
        units = []
    summary = get_field(output, "summary")
    if summary is not None and not isinstance(summary, str):
        c.add("malformed", "summary is not text", "summary")
    _check_units(c, units, paragraphs)
    questions = get_field(output, "recall_questions")
    if not isinstance(questions, list | tuple):
        c.add("malformed", "recall_questions is not a list", "recall_questions")
        questions = []
    _check_questions(c, questions, len(units))
    _check_ideas(c, get_field(output, "core_ideas"), paragraphs)
    c.issues.extend(card_issues(output, paragraphs, authored=authored, topics=topics))
    c.issues.extend(_claim_issues(units, questions, c.issues, unbacked="warning" if authored else "error"))
    return ValidationReport(tuple(c.issues))


def _check_units(c: _Collector, units: Sequence[Any], paragraphs: Mapping[str, tuple[str, str]]) -> None:
    """Each unit's shape and evidence, and whether it repeats (or nearly repeats) an earlier one."""
    seen = Repeats()
    for i, unit in enumerate(units):
        where = f"memory_units[{i}]"
        if not (isinstance(unit, Mapping) or hasattr(unit, "content")):
            c.add("malformed", "the unit is not an object", where)
            seen.add(_EMPTY)
            continue
        content = get_field(unit, "content")
        if _blank(content):
            c.add("empty_content", "has no content", where)
        mtype = get_field(unit, "memory_type")
        if mtype not in MEMORY_TYPES:
            c.add("unknown_type", f"type {mtype!r} is not one of {', '.join(MEMORY_TYPES)}", where)
        confidence = get_field(unit, "confidence")
        if not _is_score(confidence):
            c.add("bad_score", f"confidence {confidence!r} is not in [0, 1]", where)
        tags = get_field(unit, "tags")
        if tags is not None and (
            not isinstance(tags, list | tuple) or not all(isinstance(t, str) for t in tags)
        ):
            c.add("bad_tags", "tags are not a list of strings", where)
        _check_evidence(c, get_field(unit, "evidence"), where, paragraphs)
        norm = _EMPTY if _blank(content) else _Text.of(content)
        found = seen.first(norm)
        if found is not None:
            k, code = found
            what = "repeats" if code == "duplicate_unit" else "nearly repeats"
            c.add(code, f"{what} memory_units[{k}]", where)
        seen.add(norm)


class Repeats:
    """The repeat rule against a growing list of units, indexed: `first` finds the earliest
    unit a text repeats or nearly repeats, as comparing it with every earlier one in order
    would, but looks only at units sharing one of its word bigrams (`_near` asks for 40% of
    them shared; two texts without any can only repeat each other). A book's 1,500 units
    take a fraction of a second instead of a minute."""

    def __init__(self) -> None:
        self._texts: list[_Text] = []
        self._by_pair: dict[tuple[str, str], list[int]] = {}
        self._unpaired: list[int] = []

    def add(self, norm: _Text) -> None:
        """The next unit (`_EMPTY` for one without content: it keeps the numbering)."""
        k = len(self._texts)
        self._texts.append(norm)
        if not norm.text:
            return
        for pair in norm.pairs:
            self._by_pair.setdefault(pair, []).append(k)
        if not norm.pairs:
            self._unpaired.append(k)

    def repeated(self, content: str) -> bool:
        """Whether `content` repeats (or nearly) a unit added."""
        return self.first(_Text.of(content)) is not None

    def add_text(self, content: str) -> None:
        self.add(_Text.of(content))

    def first(self, norm: _Text) -> tuple[int, str] | None:
        """(index, code) of the first unit added that `norm` repeats, or None."""
        if not norm.text:
            return None
        if norm.pairs:
            near = sorted({k for pair in norm.pairs for k in self._by_pair.get(pair, ())})
        else:
            near = self._unpaired
        for k in near:
            code = _repeat_code(norm, self._texts[k])
            if code:
                return k, code
        return None


def _repeat_code(norm: _Text, other: _Text) -> str | None:
    """The repeat rule: "duplicate_unit" (the same text, normalised), "near_duplicate_unit"
    (`_near`) or None."""
    if not other.text or not norm.text:
        return None
    if norm.text == other.text:
        return "duplicate_unit"
    return "near_duplicate_unit" if _near(norm, other) else None


def repeat_issue(
    content: str, stored: Sequence[tuple[int, str]], severity: Literal["error", "warning"] = "error"
) -> ValidationIssue | None:
    """The validator's repeat rule for one unit against units already stored, (id, content):
    the first one it repeats or nearly repeats, as an issue naming that unit; None for none."""
    norm = _Text.of(content)
    for unit_id, other in stored:
        code = _repeat_code(norm, _Text.of(other))
        if code:
            what = "repeats" if code == "duplicate_unit" else "nearly repeats"
            return ValidationIssue(code, f"{what} unit {unit_id}", "memory_units[0]", severity)
    return None


def _check_questions(c: _Collector, questions: Sequence[Any], unit_count: int) -> None:
    """Each question's shape and unit; every unit needs one."""
    asked: set[int] = set()
    for i, q in enumerate(questions):
        where = f"recall_questions[{i}]"
        if not (isinstance(q, Mapping) or hasattr(q, "question")):
            c.add("malformed", "the question is not an object", where)
            continue
        if _blank(get_field(q, "question")):
            c.add("empty_question", "has no question text", where)
        if _blank(get_field(q, "expected_answer")):
            c.add("empty_answer", "has no expected answer", where)
        kind = get_field(q, "kind")
        if kind not in QUESTION_KINDS:
            c.add("unknown_question_kind", f"kind {kind!r} is not qa or cloze", where)
        idx = get_field(q, "memory_unit_index")
        if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx < unit_count:
            c.add("unknown_unit", f"points at unit {idx!r}, which does not exist", where)
        else:
            asked.add(idx)
    for i in range(unit_count):
        if i not in asked:
            c.add("no_question", "has no recall question", f"memory_units[{i}]")


def _check_ideas(c: _Collector, ideas: Any, paragraphs: Mapping[str, tuple[str, str]]) -> None:
    if ideas is not None and not isinstance(ideas, list | tuple):
        c.add("malformed", "core_ideas is not a list", "core_ideas")
    for i, idea in enumerate(as_list(ideas)):
        where = f"core_ideas[{i}]"
        if _blank(get_field(idea, "idea")):
            c.add("empty_idea", "has no text", where)
        score = get_field(idea, "salience_score")
        if not _is_score(score):
            c.add("bad_score", f"salience_score {score!r} is not in [0, 1]", where)
        _check_evidence(c, get_field(idea, "evidence"), where, paragraphs)


def _claim_issues(
    units: Any, questions: Any, found: list[ValidationIssue], *, unbacked: Severity
) -> list[ValidationIssue]:
    """Claim-evidence consistency: each unit's content, and each answer, against its unit's quotes.
    A sentence of the content no quote backs is an issue of severity `unbacked` (an error but in
    the reader's own words: consistency.claim_issues).

    Content or an answer that is a span of a quote is never flagged (see consistency.check). A
    unit whose evidence is already wrong is skipped (its quote is not there to compare with). An
    answer is a fragment (a name, a figure): only what contradicts the quote is reported for it;
    whether the card as a whole is backed by the quote is the content's check. A cloze answer is
    read in its sentence (the blank filled): 'understood' alone would drop the 'never' before
    the blank of '... was never ____.'. A question that contradicts its own unit's content is
    an error too (consistency.question_issues), and so are quotes with next to nothing of the
    content (consistency.unrelated): neither is kept with a reason."""
    ungrounded = {
        i.unit_index for i in found if i.where.rest.startswith(".evidence") or i.code == "no_evidence"
    }
    quotes = [
        [] if i in ungrounded else [get_field(span, "quote") for span in as_list(get_field(unit, "evidence"))]
        for i, unit in enumerate(as_list(units))
    ]
    out: list[ValidationIssue] = []
    contents = [get_field(unit, "content") for unit in as_list(units)]
    for i, content in enumerate(contents):
        out += claim_issues(content, quotes[i], f"memory_units[{i}]", unbacked=unbacked)
    for k, q in enumerate(as_list(questions)):
        idx = get_field(q, "memory_unit_index")
        if isinstance(idx, int) and not isinstance(idx, bool) and 0 <= idx < len(quotes):
            where = f"recall_questions[{k}]"
            answer = claim_issues(_answer_claim(q), quotes[idx], where, "the answer")
            out += [issue for issue in answer if issue.severity == "error"]
            out += question_issues(_answer_claim(q), contents[idx], where)
    return out


def _answer_claim(question: Any) -> Any:
    """What a question's answer claims: a cloze's sentence with its blank filled, else the answer."""
    answer, text = get_field(question, "expected_answer"), get_field(question, "question")
    if get_field(question, "kind") != "cloze" or not isinstance(answer, str) or not isinstance(text, str):
        return answer
    blank = CLOZE_BLANK.search(text)
    return text[: blank.start()] + answer + text[blank.end() :] if blank else answer


@dataclass(frozen=True, slots=True)
class _Text:
    """A unit's content normalised for comparison, with its word bigrams (CJK: character
    bigrams): a cheap first filter before the exact, quadratic similarity."""

    text: str
    pairs: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, content: str) -> _Text:
        norm = normalize_for_match(content)
        tokens = _TOKEN.findall(norm)
        return cls(norm, frozenset(pairwise(tokens)))


_EMPTY = _Text("", frozenset())


def _near(a: _Text, b: _Text) -> bool:
    """The same text give or take a few characters: >= 85% similar, both >= 12 characters.

    SequenceMatcher is quadratic and an LLM may return very long "units", so pairs sharing
    under 40% of their word bigrams are ruled out first (one changed word in a short sentence
    keeps ~60%), and at most NEAR_DUPLICATE_SPAN leading characters are compared."""
    x, y = a.text, b.text
    if min(len(x), len(y)) < 12 or abs(len(x) - len(y)) > 0.2 * max(len(x), len(y)):
        return False
    shared = len(a.pairs & b.pairs)
    if shared < 0.4 * (len(a.pairs) + len(b.pairs) - shared):
        return False
    span = NEAR_DUPLICATE_SPAN
    return SequenceMatcher(None, x[:span], y[:span], autojunk=False).ratio() >= NEAR_DUPLICATE_RATIO


def validate(
    output: ArticleMemoryOutput,
    document: SourceDocument,
    *,
    authored: bool = False,
    topics: frozenset[str] | None = None,
) -> ValidationReport:
    """Validate an extractor's output (or a reader's edit, `authored`) against its document
    (see validate_raw for `topics`)."""
    return validate_raw(output, document, authored=authored, topics=topics)
