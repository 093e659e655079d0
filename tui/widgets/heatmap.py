"""A text heatmap of reviews per day (GitHub style: weeks across, weekdays down, months above)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from textual.content import Content

SHADES = "·░▒▓█"
DAYS = ("Mon", "   ", "Wed", "   ", "Fri", "   ", "Sun")
GUTTER = 4  # "Mon " before the first week


def weeks_for(width: int, *, most: int = 53) -> int:
    """How many weeks fit in `width` cells (two a week after the weekday names), 4 at least."""
    return max(4, min(most, (width - GUTTER) // 2))


def _months(start: date, weeks: int) -> Content:
    """Month names over the week in which each month starts (the first week names its month)."""
    line = [" "] * (GUTTER + 2 * weeks)
    free = 0  # the first cell a name may start in (names never overlap)
    for week in range(weeks):
        first = start + timedelta(days=7 * week)
        if week and (first + timedelta(days=6)).month == first.month and first.day > 1:
            continue
        month = first + timedelta(days=6) if week else first
        at = GUTTER + 2 * week
        name = month.strftime("%b")
        if at >= free and at + len(name) <= len(line):
            line[at : at + len(name)] = name
            free = at + len(name) + 1
    return Content.styled("".join(line).rstrip(), "$text-muted")


def heatmap(per_day: Mapping[date, int], today: date, weeks: int = 16) -> Content:
    """`weeks` columns ending with this week, month names above, a legend with the title below;
    darker = more reviews that day."""
    peak = max(per_day.values(), default=0)
    start = today - timedelta(days=today.weekday() + 7 * (weeks - 1))
    rows: list[Content] = [_months(start, weeks)]
    for weekday in range(7):
        cells: list[Content] = [Content.styled(DAYS[weekday] + " ", "$text-muted")]
        for week in range(weeks):
            day = start + timedelta(days=7 * week + weekday)
            if day > today:
                cells.append(Content("  "))
                continue
            n = per_day.get(day, 0)
            level = 0 if n <= 0 or peak <= 0 else 1 + min(3, (n * 4 - 1) // peak)
            cells.append(Content.styled(SHADES[level] + " ", "$success" if level else "$text-muted"))
        rows.append(Content("").join(cells))
    title = f"Reviews a day, last {weeks} weeks" if weeks >= 20 else f"Reviews, {weeks} weeks"
    legend = Content.assemble(
        (" " * GUTTER, ""),
        (title, "bold"),
        ("   less ", "$text-muted"),
        (SHADES[1:], "$success"),
        (" more", "$text-muted"),
    )
    rows.append(legend)
    return Content("\n").join(rows)
