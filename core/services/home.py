"""Home's figures as a use case: today's counts from the review, stats and library services,
and a year of reviews for the heatmap, in one read the screen only shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from core.domain.home import HomeFigures

if TYPE_CHECKING:
    from core.services.library import LibraryService
    from core.services.review.service import ReviewService
    from core.services.stats import StatsService


@dataclass
class HomeService:
    stats: StatsService
    library: LibraryService
    review: ReviewService

    def figures(self) -> HomeFigures:
        """Today's figures (a year of reviews for the heatmap)."""
        from core.ingest.formats import SUPPORTED_SUFFIXES  # the readers' own list (as the import tree's)

        stats = self.stats.summary()
        library = self.library
        days = self.stats.reviews_by_day(7 * 53)
        return HomeFigures(
            due=int(stats.forecast[0].value) if stats.forecast else 0,
            new=self.review.new_today(),
            learning=stats.counts.get("learning", 0),
            tomorrow=int(stats.forecast[1].value) if len(stats.forecast) > 1 else 0,
            proposed=library.unit_count("proposed"),
            proposing=library.articles_with("proposed"),
            confirmed=library.unit_count("confirmed"),
            articles=library.article_count(),
            streak=stats.streak,
            per_day={date.fromisoformat(p.day): int(p.value) for p in days if p.value},
            formats=SUPPORTED_SUFFIXES,
            week=[(p.day, int(p.value)) for p in stats.forecast[:7]],
            latest=[(a.title, a.proposed, a.confirmed) for a in library.articles(5)],
        )
