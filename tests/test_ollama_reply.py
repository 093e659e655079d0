"""Whatever JSON a model sends, reading it never raises (but ReplyFault) and keeps only valid units."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.extraction.ollama.reply import ReplyFault, parse_reply, prune, to_output
from core.ingest import read_document
from core.validation import validate

DOC = read_document(Path(__file__).resolve().parent.parent / "sample_articles" / "spaced-repetition.md")
IDS = [p.paragraph_id for p in DOC.paragraphs] + ["p_999", "", "x"]
QUOTES = [p.text[:40] for p in DOC.paragraphs] + ["invented words", ""]

scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**30), st.floats(allow_nan=True), st.text(max_size=20)
)
junk = st.recursive(
    scalar,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=8,
)
span = st.fixed_dictionaries(
    {"paragraph_id": st.sampled_from(IDS) | junk, "quote": st.sampled_from(QUOTES) | junk}
)
unit = st.fixed_dictionaries(
    {
        "content": st.text(max_size=30) | junk,
        "memory_type": st.sampled_from(["concept", "claim", "mechanism", "example", "fact"]) | junk,
        "evidence": st.lists(span, max_size=2) | junk,
        "tags": st.lists(st.text(max_size=5), max_size=2) | junk,
        "confidence": st.floats(-1, 2) | junk,
    }
)
question = st.fixed_dictionaries(
    {
        "question": st.text(max_size=20) | junk,
        "expected_answer": st.text(max_size=20) | junk,
        "memory_unit_index": st.integers(-2, 6) | junk,
        "kind": st.sampled_from(["qa", "cloze", "essay"]) | junk,
    }
)
idea = st.fixed_dictionaries(
    {
        "idea": st.text(max_size=20) | junk,
        "evidence": st.lists(span, max_size=2),
        "salience_score": st.floats(0, 1) | junk,
    }
)
reply = st.fixed_dictionaries(
    {
        "summary": st.text(max_size=20),
        "core_ideas": st.lists(idea, max_size=2),
        "memory_units": st.lists(unit, max_size=5),
        "recall_questions": st.lists(question, max_size=6),
    }
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reply)
def test_any_shaped_reply_prunes_to_a_valid_output(data: dict[str, Any]) -> None:
    try:
        parsed = parse_reply(json.dumps(data))
    except ReplyFault:
        return
    pruned = prune(parsed, DOC)
    output = to_output(pruned.data)
    assert validate(output, DOC).ok
    assert len(output.memory_units) + sum(d["kind"] == "memory_unit" for d in pruned.dropped) == len(
        data["memory_units"]
    )


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200) | junk.map(json.dumps))
def test_any_text_is_parsed_or_refused(text: str) -> None:
    try:
        parse_reply(text)
    except ReplyFault as fault:
        assert str(fault)
