"""An agent cannot flood the library (issue 34, item 7).

The attack stored a 5 MB content, a 5 MB question, 5,000 questions and 50,000 tags (the library
grew 40 MB). Each field has a limit (core.services.proposal_checks.ProposalLimits, README "For agents"),
and one server process, or one library whichever servers write to it, stores at most 30 proposals a
minute; a refusal names the limit (never echoing the value) and
nothing is stored.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.host.clock import FixedClock
from core.services.agents import LIMITS, AgentTools, ProposalRefused
from core.services.bootstrap import Services

from .helpers import RUBISCO, SAMPLES, db_file, rubisco_card

QUOTE = RUBISCO


@pytest.fixture
def tools(services: Services) -> AgentTools:
    services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="offline")
    return AgentTools(services, allow_propose=True, client="flood")


def proposal(tools: AgentTools, **change: Any) -> dict[str, Any]:
    article = tools.services.library.articles()[0]
    pid = next(p.paragraph_id for p in tools.services.library.paragraphs(article.id) if QUOTE in p.text)
    return rubisco_card(article.id, pid, **change)


def units(tools: AgentTools) -> int:
    return tools.services.library.unit_count()


BIG = "carbon " * 750_000  # 5 MB


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {"content": "The enzyme RuBisCO fixes carbon dioxide. " + BIG},
            "the content has 5,250,041 characters; at most 2,000",
        ),
        (
            {
                "questions": [
                    {
                        "question": "Which enzyme fixes carbon? " + BIG,
                        "expected_answer": "RuBisCO",
                        "kind": "qa",
                    }
                ]
            },
            "question 1 has 5,250,027 characters; at most 1,000",
        ),
        (
            {
                "questions": [
                    {
                        "question": f"Which enzyme fixes carbon {i}?",
                        "expected_answer": "RuBisCO",
                        "kind": "qa",
                    }
                    for i in range(5_000)
                ]
            },
            "the unit has 5,000 questions; at most 10",
        ),
        ({"tags": [f"tag{i}" for i in range(50_000)]}, "the unit has 50,000 tags; at most 10"),
        ({"tags": ["RuBisCO", "x" * 51]}, "tag 2 has 51 characters; at most 50"),
        (
            {
                "questions": [
                    {"question": "Which enzyme fixes carbon?", "expected_answer": "R" * 1_001, "kind": "qa"}
                ]
            },
            "answer 1 has 1,001 characters; at most 1,000",
        ),
        # the re-attack: fields without a limit took 5.5 s of CPU each and the refusal echoed them
        ({"memory_type": "claim" * 800_000}, "the memory type has 4,000,000 characters; at most 40"),
        (
            {"evidence": [{"paragraph_id": "p_" + "0" * 4_000_000, "quote": QUOTE}]},
            "quote 1's paragraph id has 4,000,002 characters; at most 40",
        ),
        (  # the second re-attack: a key of its own, sent back whole in the refusal
            {
                "questions": [
                    {
                        "question": "Which enzyme fixes carbon?",
                        "expected_answer": "RuBisCO",
                        "x" * 4_000_000: 1,
                    }
                ]
            },
            "question 1 has a field this tool does not take",
        ),
        (
            {
                "questions": [
                    {"question": "Which enzyme fixes carbon?", "expected_answer": "RuBisCO", "kind": "q" * 41}
                ]
            },
            "question 1's kind has 41 characters; at most 40",
        ),
    ],
    ids=[
        "5MB-content",
        "5MB-question",
        "5000-questions",
        "50000-tags",
        "long-tag",
        "long-answer",
        "4MB-memory-type",
        "4MB-paragraph-id",
        "4MB-key",
        "long-kind",
    ],
)
def test_an_oversized_proposal_is_refused_with_its_limit(
    tools: AgentTools, data_home: Path, change: dict[str, Any], reason: str
) -> None:
    before, size = units(tools), db_file(data_home).stat().st_size
    with pytest.raises(ProposalRefused) as refused:
        tools.propose(**proposal(tools, **change))
    assert reason in str(refused.value)
    assert len(str(refused.value)) < 2_000  # the refusal names the limit, it does not echo the value
    assert units(tools) == before
    assert db_file(data_home).stat().st_size < size + 1_000_000


def test_a_proposal_at_every_limit_is_stored(tools: AgentTools) -> None:
    at_limit = proposal(
        tools,
        content=("The enzyme RuBisCO fixes carbon dioxide from the air into organic molecules. " * 40)[
            : LIMITS.content
        ],
        tags=[f"{'t' * (LIMITS.tag - 2)}{i:02d}" for i in range(LIMITS.tags)],
    )
    assert isinstance(tools.propose(**at_limit), int)


def test_one_server_takes_at_most_30_proposals_a_minute(tools: AgentTools, clock: FixedClock) -> None:
    """Refused ones count too (checking a flood costs what storing it would): the first is
    stored, 29 repeats are refused as repeats, the 31st within the minute is refused with the
    wait; a minute after the first, proposing works again."""
    good = proposal(tools)
    assert isinstance(tools.propose(**good), int)
    for _ in range(LIMITS.per_minute - 1):
        clock.advance(seconds=1)
        with pytest.raises(ProposalRefused, match="duplicate_unit"):
            tools.propose(**good)
    before = units(tools)
    with pytest.raises(ProposalRefused) as refused:
        tools.propose(**proposal(tools, content="The enzyme RuBisCO fixes carbon dioxide from the air."))
    assert (
        "30 proposals in the last minute, the most this server takes (30 a minute); try again in 31 s"
        in str(refused.value)
    )
    assert units(tools) == before
    clock.advance(seconds=31)
    tools.propose(**proposal(tools, content="The enzyme RuBisCO fixes carbon dioxide from the air."))
    assert units(tools) == before + 1


def test_servers_started_one_after_another_share_the_librarys_rate(
    tools: AgentTools, clock: FixedClock
) -> None:
    """The re-attack started three servers one after another and stored 47 proposals in 5 s:
    the rate was counted per process. The proposals stored in the library in the last minute
    count too, whichever process stored them (here with a limit of 2 a minute)."""
    limits = replace(LIMITS, per_minute=2)
    article = tools.services.library.articles()[0]
    paragraphs = tools.services.library.paragraphs(article.id)

    def grounded(quote: str, answer: str) -> dict[str, Any]:
        pid = next(p.paragraph_id for p in paragraphs if quote in p.text)
        sentence = quote[0].upper() + quote[1:] + "."
        return proposal(
            tools,
            content=sentence,
            evidence=[{"paragraph_id": pid, "quote": quote}],
            questions=[
                {"question": sentence.replace(answer, "____", 1), "expected_answer": answer, "kind": "cloze"}
            ],
        )

    made = [
        grounded(QUOTE, "RuBisCO"),
        grounded("chlorophyll absorbs light and uses its energy to split water molecules", "water molecules"),
        grounded("the Calvin cycle does not need light directly", "light"),
    ]
    for each in made[:2]:  # two servers, one proposal each
        server = AgentTools(tools.services, allow_propose=True, client="flood", limits=limits)
        assert isinstance(server.propose(**each), int)
        clock.advance(seconds=1)
    before = units(tools)
    third = AgentTools(tools.services, allow_propose=True, client="flood", limits=limits)
    with pytest.raises(ProposalRefused, match="2 proposals stored in this library in the last minute"):
        third.propose(**made[2])
    assert units(tools) == before
    clock.advance(seconds=60)
    assert isinstance(third.propose(**made[2]), int)
