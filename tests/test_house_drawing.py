"""The README's house drawing is the import contract: the packages it draws are the layers of
pyproject's "the house" contract, floor by floor in the same order (lint-imports enforces them)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def layers() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [house] = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [{m.strip() for m in layer.split("|")} for layer in house["layers"]]


def drawn() -> list[str]:
    """Packages in the drawing, in order of first appearance (core/x/ -> core.x)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The house") :]
    block = section[section.index("```") + 3 :]
    block = block[: block.index("```")]
    seen: list[str] = []
    for token in re.findall(r"(?<![\w/])((?:core/)?[a-z]+)/", block):
        name = token.replace("/", ".")
        if (name.startswith("core.") or name in {"tui", "scheduler"}) and name not in seen:
            seen.append(name)
    return seen


def test_the_drawing_shows_every_layer_and_nothing_else() -> None:
    floors = layers()
    assert set(drawn()) == set().union(*floors)


def test_the_floors_are_drawn_top_down_in_the_contracts_order() -> None:
    order = drawn()
    first = [min(order.index(m) for m in floor) for floor in layers()]
    last = [max(order.index(m) for m in floor) for floor in layers()]
    assert all(last[i] < first[i + 1] for i in range(len(first) - 1)), order
