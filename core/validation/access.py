"""Reading a field from a domain object or from the loosely typed dict an LLM produced."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def get_field(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def as_list(value: Any) -> list[Any] | tuple[Any, ...]:
    return value if isinstance(value, list | tuple) else ()
