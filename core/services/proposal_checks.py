"""What an agent's proposal is held to before it is validated and stored (`memoryrush mcp`,
core/services/agents.py): size limits on every field and on proposals a minute, no field the
tool does not take, no claim added beside a question or an answer, and refusals that name
what to fix without sending an agent's value back (issue 34, items 6 and 7, and the
re-attacks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.domain import ValidationIssue
from core.validation.cards import BLANK
from core.validation.consistency import UNRELATED, UNSUPPORTED_SENTENCE, added_clauses, unrelated


@dataclass(frozen=True, slots=True)
class ProposalLimits:
    """What one server process takes from an agent (README, For agents). A card a person
    reviews is a sentence or two with a short answer, so the limits sit far above any unit
    worth keeping and far below a flood: issue 34 stored a 5 MB content, a 5 MB question,
    5,000 questions and 50,000 tags (the library grew 40 MB). Characters are counted as Python
    counts them (a CJK character is one)."""

    content: int = 2_000  # characters of the unit's content
    question: int = 1_000  # characters of a question, and of its expected answer
    questions: int = 10  # recall questions per unit
    quote: int = 2_000  # characters of one evidence quote
    quotes: int = 10  # evidence quotes per unit
    tag: int = 50  # characters of one tag
    tags: int = 10  # tags per unit
    name: int = 40  # characters of a memory type, a paragraph id or a question's kind
    per_minute: int = 30  # proposals (refused ones too) in any 60 seconds, per server process and per library

    def describe(self) -> str:
        """The limits as the agent is told them (the tool's description)."""
        return (
            f"Limits: content {self.content:,} characters; up to {self.questions} questions, each "
            f"question and answer {self.question:,}; up to {self.quotes} quotes of {self.quote:,}; "
            f"up to {self.tags} tags of {self.tag}; memory type, paragraph ids and question kinds "
            f"{self.name} each; {self.per_minute} proposals a minute."
        )


LIMITS = ProposalLimits()


MESSAGE = 500
QUESTION_FIELDS = frozenset({"question", "expected_answer", "kind", "memory_unit_index"})


def cut(message: str) -> str:
    return message if len(message) <= MESSAGE else message[: MESSAGE - 1] + "\u2026"


def unbacked_questions(unit: dict[str, Any], asked: list[dict[str, Any]]) -> tuple[ValidationIssue, ...]:
    """A claim an agent puts beside a question or an answer rather than in the content ("Given
    that vaccines cause autism, where ...?", an answer "RuBisCO. Also, vaccines cause autism, so
    avoid them."): a clause of its own the unit's quotes and content do not back (re-attack,
    issue 34 item 6; consistency.added_clauses). A question or answer of one clause may word
    things its own way. A cloze is read without its blank."""
    evidence = unit.get("evidence")
    quotes = [e.get("quote") for e in evidence if isinstance(e, dict)] if isinstance(evidence, list) else []
    backing = [q for q in [*quotes, unit.get("content")] if isinstance(q, str) and q.strip()]
    out: list[ValidationIssue] = []
    for k, q in enumerate(asked):
        for part, text in (("question", q.get("question")), ("answer", q.get("expected_answer"))):
            if not isinstance(text, str) or not text.strip():
                continue
            if part == "answer" and (lacking := unrelated(" ".join(backing), text)) is not None:
                out.append(  # an answer of one clause may reword, not be about something else
                    ValidationIssue(
                        UNRELATED,
                        f"answer {k + 1} is not what its quotes say at all (they have none of {lacking})",
                        f"recall_questions[{k}]",
                        "error",
                    )
                )
                continue
            for clause in added_clauses(BLANK.sub(" ", text), backing):
                out.append(
                    ValidationIssue(
                        UNSUPPORTED_SENTENCE,
                        f"{part} {k + 1} says what its quotes do not: \u201c{clause[:200]}\u201d",
                        f"recall_questions[{k}]",
                        "error",
                    )
                )
    return tuple(out)


def oversized(
    limits: ProposalLimits, content: Any, evidence: Any, questions: Any, tags: Any, memory_type: Any = ""
) -> tuple[ValidationIssue, ...]:
    """What in a proposal is over `limits` (each with the limit), before anything else is read."""
    out: list[ValidationIssue] = []

    def over(value: Any, most: int, what: str, where: str, unit: str = "characters") -> None:
        if isinstance(value, str | list | tuple) and len(value) > most:
            code = "too_long" if unit == "characters" else f"too_many_{unit}"
            out.append(ValidationIssue(code, f"{what} has {len(value):,} {unit}; at most {most:,}", where))

    over(content, limits.content, "the content", "memory_units[0]")
    over(memory_type, limits.name, "the memory type", "memory_units[0].memory_type")
    over(questions, limits.questions, "the unit", "recall_questions", "questions")
    over(evidence, limits.quotes, "the unit", "memory_units[0].evidence", "quotes")
    over(tags, limits.tags, "the unit", "memory_units[0].tags", "tags")
    for j, span in enumerate(evidence[: limits.quotes] if isinstance(evidence, list | tuple) else ()):
        if isinstance(span, dict):
            over(span.get("quote"), limits.quote, f"quote {j + 1}", f"memory_units[0].evidence[{j}]")
            over(
                span.get("paragraph_id"),
                limits.name,
                f"quote {j + 1}'s paragraph id",
                f"memory_units[0].evidence[{j}]",
            )
    for k, q in enumerate(questions[: limits.questions] if isinstance(questions, list | tuple) else ()):
        if isinstance(q, dict):
            over(q.get("question"), limits.question, f"question {k + 1}", f"recall_questions[{k}]")
            over(q.get("expected_answer"), limits.question, f"answer {k + 1}", f"recall_questions[{k}]")
            over(q.get("kind"), limits.name, f"question {k + 1}'s kind", f"recall_questions[{k}]")
            extra = [str(key) for key in q if key not in QUESTION_FIELDS]
            if extra:  # read before anything else: a 4 MB key took 5 s of checking
                out.append(
                    ValidationIssue(
                        "unknown_field",
                        f"question {k + 1} has a field this tool does not take: {cut(extra[0])[:60]}",
                        f"recall_questions[{k}]",
                    )
                )
    for t, tag in enumerate(tags[: limits.tags] if isinstance(tags, list | tuple) else ()):
        over(tag, limits.tag, f"tag {t + 1}", f"memory_units[0].tags[{t}]")
    return tuple(out)
