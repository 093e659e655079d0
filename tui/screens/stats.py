"""Stats: reviews per day, 30-day forecast, true retention vs target, counts by state (plotext
charts), and how often each extractor/model's proposals were accepted, edited or rejected."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable, Static

from core.domain.review import DayPoint, MemoryStats
from core.text.words import plural
from tui import runner
from tui.safe import cell
from tui.screens.base import BaseScreen
from tui.widgets.chart import BarChart, BarList
from tui.widgets.heatmap import heatmap
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

SHORT_BELOW = 32  # rows: below, the charts keep fixed heights and the page scrolls
STATES = ("new", "learning", "review", "suspended", "buried", "leech")


class StatsScreen(BaseScreen):
    """Four charts, a heatmap and the curation-rate table."""

    HELP_NAME = "Stats"
    BINDINGS = [Binding("r", "reload", "Reload", id="stats.reload")]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="stats-body"):  # a small terminal scrolls rather than squash the charts
            with Grid(id="stats-grid"):
                yield BarChart(id="chart-reviews")
                yield BarChart(id="chart-forecast")
                yield BarList(id="chart-retention")
                yield BarList(id="chart-states")
            with Vertical(id="stats-bottom"):
                yield Static(id="stats-heatmap")
                table: DataTable[object] = DataTable(id="stats-rates", cursor_type="row")
                yield table
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#stats-rates", DataTable)
        for name in ("Extractor", "Model", "Accepted", "Edited", "Rejected", "Accept rate"):
            table.add_column(name)

    def on_resize(self, event: events.Resize) -> None:
        # Below 32 rows the charts get fixed heights and the page scrolls (80x24 squashed them
        # to one row of bars); above, they share the screen.
        self.set_class(event.size.height < SHORT_BELOW, "-short")

    def refresh_data(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self.load_stats()

    @dataclass
    class StatsRead(Message):
        """The figures were read. Handled by `on_stats_screen_stats_read`."""

        stats: MemoryStats
        rates: list[dict[str, Any]]
        origins: dict[str, int]

    def load_stats(self) -> None:
        """In a worker: the stats queries can take a while on a big library."""

        def read() -> tuple[MemoryStats, list[dict[str, Any]], dict[str, int]]:
            stats = self.services.stats
            return stats.summary(), self.services.curation.rates(), stats.units_by_origin()

        runner.start(
            self, "reading the statistics", read, lambda figures: self.StatsRead(*figures), exclusive=True
        )

    def on_stats_screen_stats_read(self, message: StatsRead) -> None:
        self.show(message.stats, message.rates, message.origins)

    def _per_day(
        self, chart: str, title: str, points: tuple[DayPoint, ...], *, from_end: bool = False
    ) -> None:
        """A bar a day (every 6th day's date under it), the sum in the title."""
        counts = [int(p.value) for p in points]
        self.query_one(chart, BarChart).show(
            f"{title}: {sum(counts)}",
            [p.day[5:] for p in points],
            [float(n) for n in counts],
            every=6,
            from_end=from_end,
        )

    def show(
        self, stats: MemoryStats, rates: list[dict[str, Any]], origins: dict[str, int] | None = None
    ) -> None:
        # today's bar has its date
        self._per_day("#chart-reviews", "Reviews a day, last 30 days", stats.reviews_per_day, from_end=True)
        self._per_day("#chart-forecast", "Due a day, next 30 days", stats.forecast)
        target = self.services.config.desired_retention * 100
        actual = stats.true_retention * 100 if stats.true_retention is not None else None
        self.query_one("#chart-retention", BarList).show(
            f"True retention, 30 days ({plural(stats.true_retention_reviews, 'review')})",
            [
                ("true retention", actual or 0.0, f"{actual:.1f}%" if actual is not None else "none yet"),
                ("target", target, f"{target:.0f}%"),
            ],
            top=100.0,
        )
        counts = [(state, float(stats.counts.get(state, 0))) for state in STATES]
        self.query_one("#chart-states", BarList).show(
            f"Cards by state ({plural(stats.total_reviews, 'review')} ever)",
            [(state, n, str(int(n))) for state, n in counts],
        )
        per_day = {date.fromisoformat(p.day): int(p.value) for p in stats.reviews_per_day}
        today = date.fromisoformat(stats.reviews_per_day[-1].day) if stats.reviews_per_day else date.today()
        self.query_one("#stats-heatmap", Static).update(
            Content.assemble(
                heatmap(per_day, today, weeks=5),
                "\n",
                (f"Streak {plural(stats.streak, 'day')}", "bold $accent"),
                "\n",
                origin_line(origins or {}),
            )
        )
        table = self.query_one("#stats-rates", DataTable)
        table.clear()
        for row in rates:
            accepted, edited, rejected = (int(row.get(k, 0) or 0) for k in ("accept", "edit", "reject"))
            decided = accepted + rejected
            rate = f"{accepted / decided:.0%}" if decided else "—"
            table.add_row(
                cell(row.get("extractor") or "—"),
                cell(row.get("model") or "—"),
                cell(accepted),
                cell(edited),
                cell(rejected),
                cell(rate),
            )
        if not rates:
            table.add_row(cell("no curation yet"), cell(""), cell(""), cell(""), cell(""), cell(""))


def origin_line(origins: dict[str, int]) -> Content:
    """How many confirmed units are yours and how many an extractor proposed."""
    yours, extracted = origins.get("yours", 0), origins.get("extracted", 0)
    return Content.assemble(("Confirmed ", "bold"), f"{yours} yours · {extracted} extracted")
