"""What Home shows, read from the services by Home's worker once the first frame is shown.

A module apart from the screen: the first frame needs none of it (building the dataclass
alone is ~4M instructions).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.services.bootstrap import Services


@dataclass(frozen=True)
class HomeFigures:
    due: int  # learning and review cards due today (overdue included)
    new: int  # new cards waiting
    learning: int
    tomorrow: int  # review cards due tomorrow
    proposed: int
    confirmed: int
    articles: int
    streak: int
    per_day: dict[date, int]
    new_per_day: int
    week: list[tuple[str, int]]  # (ISO day, cards due) for today and the six days after
    latest: list[tuple[str, int, int]]  # (title, proposed, confirmed) of the articles added last


def home_figures(services: Services) -> HomeFigures:
    """Today's figures from the stats and library services (a year of reviews for the heatmap)."""
    stats = services.stats.summary()
    library = services.library
    days = services.stats.reviews_by_day(7 * 53)
    return HomeFigures(
        due=int(stats.forecast[0].value) if stats.forecast else 0,
        new=stats.counts.get("new", 0),
        learning=stats.counts.get("learning", 0),
        tomorrow=int(stats.forecast[1].value) if len(stats.forecast) > 1 else 0,
        proposed=library.unit_count("proposed"),
        confirmed=library.unit_count("confirmed"),
        articles=library.article_count(),
        streak=stats.streak,
        per_day={date.fromisoformat(p.day): int(p.value) for p in days if p.value},
        new_per_day=services.config.new_per_day,
        week=[(p.day, int(p.value)) for p in stats.forecast[:7]],
        latest=[(a.title, a.proposed, a.confirmed) for a in library.articles(5)],
    )
