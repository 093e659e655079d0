"""What Home shows: today's figures, assembled by core.services.home."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class HomeFigures:
    due: int  # learning and review cards due today (overdue included)
    new: int  # new cards today's session shows (its daily limit, one card a unit)
    learning: int
    tomorrow: int  # review cards due tomorrow
    proposed: int
    proposing: int  # articles with proposals waiting
    confirmed: int
    articles: int
    streak: int
    per_day: dict[date, int]
    formats: tuple[str, ...]  # the suffixes import reads
    week: list[tuple[str, int]]  # (ISO day, cards due) for today and the six days after
    latest: list[tuple[str, int, int]]  # (title, proposed, confirmed) of the articles added last
