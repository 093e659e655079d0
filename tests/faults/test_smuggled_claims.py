"""A claim smuggled beside a real quote is caught (issue 34, item 6).

The attack: content = a real quote + "Also, vaccines cause autism, so avoid them." was stored as
an agent's proposal with only a tag-count warning: judged as a whole, most of its words are in
the quote. Every sentence of words someone else wrote must now be backed by the quotes on its own
(core.validation.consistency.claim_issues, `each_sentence`): one that is not is an error naming it,
`claim_unsupported_sentence`. An agent's proposal with it is refused; a unit that carries it waits
in Triage until the reader keeps it with a reason (the keep-anyway door of contradictions); in the
reader's own card it is a warning.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.domain import AGENT, ArticleMemoryOutput, EvidenceSpan, MemoryUnit, RecallQuestion, ValidationReport
from core.domain.artifact import report_to_list
from core.services.agents import AgentTools, ProposalRefused
from core.services.bootstrap import Services
from core.services.curation import CannotAccept
from core.storage import proposals
from core.validation import validate

from .helpers import RUBISCO, rubisco_card

QUOTE = RUBISCO
SMUGGLED = "Also, vaccines cause autism, so avoid them."
CONTENT = f"The enzyme RuBisCO fixes carbon dioxide from the air into organic molecules. {SMUGGLED}"


def smuggling(article_id: int, pid: str) -> dict[str, Any]:
    return rubisco_card(article_id, pid, content=CONTENT)


def test_an_agents_smuggled_sentence_is_refused_and_named(rubisco_article: tuple[Services, int, str]) -> None:
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client="smuggler")
    before = services.library.unit_count()
    with pytest.raises(ProposalRefused) as refused:
        tools.propose(**smuggling(article_id, pid))
    assert "claim_unsupported_sentence" in str(refused.value)
    assert f"\u201c{SMUGGLED}\u201d" in str(refused.value)  # the sentence that is not in the evidence
    assert services.library.unit_count() == before
    honest = {**smuggling(article_id, pid), "content": CONTENT.removesuffix(" " + SMUGGLED)}
    assert isinstance(tools.propose(**honest), int)  # the quote alone is welcome


def test_a_smuggled_sentence_alone_is_refused_too(rubisco_article: tuple[Services, int, str]) -> None:
    """Not only added to a quote: a content no quote backs at all was a warning, now an error
    (its quote has none of its words: evidence unrelated to it, issue 32)."""
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client="smuggler")
    with pytest.raises(ProposalRefused, match="claim_unrelated"):
        tools.propose(**{**smuggling(article_id, pid), "content": "Vaccines cause autism, so avoid them."})


BARE = "The enzyme RuBisCO fixes carbon dioxide from the air into organic molecules"
JOINED = {  # the re-attack's joins: each one passed as part of a sentence the quote backs
    ", and": f"{BARE}, and vaccines cause autism in young children.",
    "parentheses": f"{BARE} (vaccines cause autism in young children).",
    "semicolon": f"{BARE}; vaccines cause autism in young children.",
    "no space": f"{BARE}.Also vaccines cause autism in young children.",
    "ellipsis": f"{BARE}\u2026 vaccines cause autism in young children\u2026",
    "new line": f"{BARE}\nvaccines cause autism in young children",
    "colon": f"{BARE}: vaccines cause autism in young children.",
    "dash": f"{BARE} \u2014 vaccines cause autism in young children.",
    ", which": f"{BARE}, which proves that vaccines cause autism in young children.",
    ", but": f"{BARE}, but vaccines cause autism in young children.",
    # the second re-attack: no comma before "whereas" or "because"
    "whereas": f"{BARE} whereas vaccines cause autism in young children.",
    "because": f"{BARE} because vaccines cause autism in young children.",
}


@pytest.mark.parametrize("join", sorted(JOINED))
def test_a_claim_joined_inside_the_sentence_is_refused_and_named(
    rubisco_article: tuple[Services, int, str], join: str
) -> None:
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client="smuggler")
    before = services.library.unit_count()
    with pytest.raises(ProposalRefused) as refused:
        tools.propose(**{**smuggling(article_id, pid), "content": JOINED[join]})
    assert "claim_unsupported_sentence" in str(refused.value)
    assert "vaccines cause autism" in str(refused.value)
    assert services.library.unit_count() == before


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "Which enzyme fixes carbon dioxide from the air?",
            "RuBisCO. Also, vaccines cause autism, so avoid them.",
        ),
        ("Given that vaccines cause autism in young children, which enzyme fixes carbon dioxide?", "RuBisCO"),
        (
            "Which enzyme, whose action says vaccines cause autism in children, fixes carbon dioxide?",
            "RuBisCO",
        ),
        ("Which enzyme fixes carbon dioxide from the air?", "Vaccines cause autism in children."),
    ],
    ids=["in-the-answer", "in-the-question", "in-a-whose-clause", "the-answer-alone"],
)
def test_a_claim_in_a_question_or_an_answer_is_refused(
    rubisco_article: tuple[Services, int, str], question: str, answer: str
) -> None:
    """Re-attack: with the content honest, the claim moved to the expected answer or the
    question, and was stored."""
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client="smuggler")
    before = services.library.unit_count()
    honest = {**smuggling(article_id, pid), "content": CONTENT.removesuffix(" " + SMUGGLED)}
    asked = [{"question": question, "expected_answer": answer, "kind": "qa"}]
    with pytest.raises(ProposalRefused) as refused:
        tools.propose(**{**honest, "questions": asked})
    assert "autism" in str(refused.value).lower()  # named, as a clause or among the words the quotes lack
    assert services.library.unit_count() == before
    fair = [  # a question or answer of one clause words things its own way (review)
        {
            "question": "Which enzyme fixes carbon dioxide from the air?",
            "expected_answer": "RuBisCO",
            "kind": "qa",
        },
        {
            "question": "What is the name of the enzyme responsible for carbon fixation in plants?",
            "expected_answer": "RuBisCO",
            "kind": "qa",
        },
        {
            "question": "Explain the role of RuBisCO in photosynthesis.",
            "expected_answer": "It catalyses carbon fixation.",
            "kind": "qa",
        },
    ]
    assert isinstance(tools.propose(**{**honest, "questions": fair}), int)


def test_clauses_the_quote_backs_pass(rubisco_article: tuple[Services, int, str]) -> None:
    """Clauses each backed by the quotes are no claim of their own: joined by ", and" and a
    semicolon, the unit is stored."""
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client="honest")
    content = "RuBisCO fixes carbon dioxide from the air; it fixes it into organic molecules, and RuBisCO is an enzyme."
    assert isinstance(tools.propose(**{**smuggling(article_id, pid), "content": content}), int)


def _report(services: Services, article_id: int, pid: str, *, authored: bool) -> ValidationReport:
    document = services.authoring.document(article_id)
    unit = MemoryUnit(CONTENT, "claim", (EvidenceSpan(pid, QUOTE),), ("RuBisCO", "Calvin cycle"), 0.5)
    question = RecallQuestion("Which enzyme fixes carbon dioxide from the air?", "RuBisCO", 0, "qa")
    return validate(ArticleMemoryOutput("", (), (unit,), (question,)), document, authored=authored)


def test_in_triage_it_is_kept_only_with_a_reason(rubisco_article: tuple[Services, int, str]) -> None:
    """A unit carrying the error (as a re-check of someone else's words stores it) cannot be
    accepted until the reader keeps it with a reason; then it can."""
    services, article_id, pid = rubisco_article
    report = _report(services, article_id, pid, authored=False)
    (issue,) = [i for i in report.issues if i.severity == "error"]
    assert issue.code == "claim_unsupported_sentence" and issue.keepable and SMUGGLED in issue.message
    unit_id = proposals.add_proposed_unit(
        proposals.NewUnit(
            article_id=article_id,
            content=CONTENT,
            memory_type="claim",
            tags=("RuBisCO", "Calvin cycle"),
            confidence=0.5,
            evidence=((pid, QUOTE),),
            questions=(("Which enzyme fixes carbon dioxide from the air?", "RuBisCO", "qa"),),
            issues=tuple(report_to_list(report)),
            extractor=AGENT,
            model="test",
        ),
        services.clock.epoch(),
    )
    with pytest.raises(CannotAccept, match="claim_unsupported_sentence"):
        services.curation.accept(unit_id)
    assert services.curation.keep_anyway(unit_id, "my doctor said so")
    assert services.curation.accept(unit_id)


def test_in_your_own_card_it_is_a_warning(rubisco_article: tuple[Services, int, str]) -> None:
    """Your own words are yours: the sentence is named, and nothing is refused."""
    services, article_id, pid = rubisco_article
    report = _report(services, article_id, pid, authored=True)
    assert report.ok
    (issue,) = [i for i in report.issues if i.code == "claim_unsupported_sentence"]
    assert issue.severity == "warning" and SMUGGLED in issue.message
