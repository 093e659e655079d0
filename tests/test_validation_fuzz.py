"""The validator never raises: arbitrary JSON and almost-right shapes give a report whose
issues all have a code and a location, and a malformed unit is always named in one."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.domain import ValidationReport
from core.validation import validate_raw
from tests.test_validation import DOC, shape

KEYS = st.sampled_from(
    [
        "summary",
        "core_ideas",
        "memory_units",
        "recall_questions",
        "content",
        "memory_type",
        "evidence",
        "paragraph_id",
        "quote",
        "tags",
        "confidence",
        "question",
        "expected_answer",
        "memory_unit_index",
        "kind",
        "idea",
        "salience_score",
    ]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["p_002", "p_001", "claim", "qa", "cloze", "The gaps grow."])
)
JSON_LIKE = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(KEYS | st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)
FIELD_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(KEYS, children, max_size=3),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_LIKE)
def test_validate_raw_never_raises_on_arbitrary_json(raw: Any) -> None:
    report = validate_raw(raw, DOC)
    assert isinstance(report, ValidationReport)
    for issue in shape(report):
        assert isinstance(issue.code, str) and isinstance(issue.location, str)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.dictionaries(KEYS, FIELD_VALUES, max_size=6), max_size=4),
    st.lists(st.dictionaries(KEYS, FIELD_VALUES, max_size=5), max_size=4),
)
def test_validate_raw_never_raises_on_almost_right_shapes(units: list[Any], questions: list[Any]) -> None:
    report = validate_raw({"summary": "s", "memory_units": units, "recall_questions": questions}, DOC)
    # a unit is either clean or named in at least one issue; nothing is silently passed
    named = {i.unit_index for i in shape(report)}
    for index, u in enumerate(units):
        if not u:
            assert index in named
