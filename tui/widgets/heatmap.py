"""A small text heatmap of reviews per day (GitHub style: weeks across, weekdays down)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from textual.content import Content

SHADES = "·░▒▓█"
DAYS = ("Mon", "   ", "Wed", "   ", "Fri", "   ", "Sun")


def heatmap(per_day: Mapping[date, int], today: date, weeks: int = 16) -> Content:
    """`weeks` columns ending with this week; darker = more reviews that day."""
    peak = max(per_day.values(), default=0)
    start = today - timedelta(days=today.weekday() + 7 * (weeks - 1))
    rows: list[Content] = [Content.styled("Reviews, last " + str(weeks) + " weeks", "bold")]
    for weekday in range(7):
        cells: list[Content] = [Content(DAYS[weekday] + " ")]
        for week in range(weeks):
            day = start + timedelta(days=7 * week + weekday)
            if day > today:
                cells.append(Content("  "))
                continue
            n = per_day.get(day, 0)
            level = 0 if n <= 0 or peak <= 0 else 1 + min(3, (n * 4 - 1) // peak)
            cells.append(Content.styled(SHADES[level] + " ", "$success" if level else "$text-muted"))
        rows.append(Content("").join(cells))
    return Content("\n").join(rows)
