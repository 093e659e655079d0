"""A small reader for the simple YAML people put in markdown front matter.

It understands `key: value`, quoted values, flow lists `[a, b]`, block lists (`key:` followed by
`- item` lines) and `#` comments. Anything else is skipped; the raw text is always kept too, so
nothing is lost. No PyYAML: front matter is metadata, not a configuration language.
"""

from __future__ import annotations

import re

_KEY = re.compile(r"^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*))?$")
_ITEM = re.compile(r"^\s+-\s+(.*)$|^-\s+(.*)$")

FrontValue = str | list[str]


def _scalar(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    if " #" in raw:
        raw = raw.split(" #", 1)[0].rstrip()
    return raw


def _value(raw: str) -> FrontValue:
    raw = raw.strip()
    if raw.startswith("[") and raw.endswith("]"):
        inner = raw[1:-1].strip()
        return [_scalar(part) for part in inner.split(",")] if inner else []
    return _scalar(raw)


def parse_front_matter(raw: str) -> dict[str, FrontValue]:
    """Parse simple `key: value` front matter; unknown shapes are skipped, never an error."""
    out: dict[str, FrontValue] = {}
    current: str | None = None
    for line in raw.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM.match(line)
        if item and current is not None:
            value = out.get(current)
            items = value if isinstance(value, list) else []
            items.append(_scalar(item.group(1) or item.group(2) or ""))
            out[current] = items
            continue
        match = _KEY.match(line)
        if match is None:
            current = None
            continue
        key, rest = match.group(1), match.group(2)
        if rest is None or not rest.strip():
            out[key] = []  # a block list may follow; stays [] (empty) if none does
            current = key
        else:
            out[key] = _value(rest)
            current = None
    return {k: ("" if v == [] else v) for k, v in out.items()}
