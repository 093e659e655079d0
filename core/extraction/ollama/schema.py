"""The JSON schema of `ArticleMemoryOutput` sent as Ollama's `format=` (structured output).

Written by hand so it reads like the contract; `tests/test_ollama_extractor.py` checks that its
property names match the dataclass fields, so the two cannot drift apart silently. The
paragraph ids a window may cite are an `enum`, so a grammar-constrained model cannot invent one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.domain import MEMORY_TYPES, QUESTION_KINDS


def _score() -> dict[str, Any]:
    return {"type": "number", "minimum": 0, "maximum": 1}


def _evidence(paragraph_ids: Sequence[str]) -> dict[str, Any]:
    pid: dict[str, Any] = {"type": "string"}
    if paragraph_ids:
        pid["enum"] = list(paragraph_ids)
    return {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "properties": {"paragraph_id": pid, "quote": {"type": "string"}},
            "required": ["paragraph_id", "quote"],
        },
    }


def output_schema(paragraph_ids: Sequence[str] = ()) -> dict[str, Any]:
    """Schema of one reply; `paragraph_ids` (the window's evidence ids) restrict citations."""
    text = {"type": "string"}
    return {
        "type": "object",
        "properties": {
            "summary": text,
            "core_ideas": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "idea": text,
                        "why_it_matters": text,
                        "evidence": _evidence(paragraph_ids),
                        "salience_score": _score(),
                    },
                    "required": ["idea", "why_it_matters", "evidence", "salience_score"],
                },
            },
            "memory_units": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": text,
                        "memory_type": {"type": "string", "enum": list(MEMORY_TYPES)},
                        "evidence": _evidence(paragraph_ids),
                        "tags": {"type": "array", "items": text},
                        "confidence": _score(),
                    },
                    "required": ["content", "memory_type", "evidence", "tags", "confidence"],
                },
            },
            "recall_questions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": text,
                        "expected_answer": text,
                        "memory_unit_index": {"type": "integer", "minimum": 0},
                        "kind": {"type": "string", "enum": list(QUESTION_KINDS)},
                    },
                    "required": ["question", "expected_answer", "memory_unit_index", "kind"],
                },
            },
        },
        "required": ["summary", "core_ideas", "memory_units", "recall_questions"],
    }
