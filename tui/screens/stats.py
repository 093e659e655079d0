"""Stats: reviews per day, 30-day forecast, true retention vs target, counts by state (plotext
charts), and how often each extractor/model's proposals were accepted, edited or rejected."""

from __future__ import annotations

from datetime import date
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from core.domain.review import MemoryStats
from core.text.words import plural
from tui.safe import cell
from tui.screens.base import BaseScreen
from tui.widgets.chart import BarChart
from tui.widgets.heatmap import heatmap
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

STATES = ("new", "learning", "review", "suspended", "buried", "leech")


class StatsScreen(BaseScreen):
    """Four charts, a heatmap and the curation-rate table."""

    HELP_NAME = "Stats"
    BINDINGS = [Binding("r", "reload", "Reload", id="stats.reload")]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Grid(id="stats-grid"):
            yield BarChart(id="chart-reviews")
            yield BarChart(id="chart-forecast")
            yield BarChart(id="chart-retention")
            yield BarChart(id="chart-states")
        with Vertical(id="stats-bottom"):
            yield Static(id="stats-heatmap")
            table: DataTable[object] = DataTable(id="stats-rates", cursor_type="row")
            yield table
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#stats-rates", DataTable)
        for name in ("Extractor", "Model", "Accepted", "Edited", "Rejected", "Accept rate"):
            table.add_column(name)

    def refresh_data(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self.load_stats()

    @work(thread=True, exclusive=True, name="stats", exit_on_error=False)
    def load_stats(self) -> None:
        """Thread worker: the stats queries can take a while on a big library."""
        stats = self.services.stats.summary()
        rates = self.services.curation.rates()
        self.app.call_from_thread(self.show, stats, rates)

    def show(self, stats: MemoryStats, rates: list[dict[str, Any]]) -> None:
        days = [p.day[5:] for p in stats.reviews_per_day]
        self.query_one("#chart-reviews", BarChart).show(
            "Reviews per day (30 days)",
            days,
            [p.value for p in stats.reviews_per_day],
            every=6,
        )
        self.query_one("#chart-forecast", BarChart).show(
            "Due per day (next 30 days)",
            [p.day[5:] for p in stats.forecast],
            [p.value for p in stats.forecast],
            every=6,
        )
        target = self.services.config.desired_retention * 100
        actual = (stats.true_retention or 0.0) * 100
        self.query_one("#chart-retention", BarChart).show(
            f"True retention vs target ({plural(stats.true_retention_reviews, 'review')}, 30 days)",
            ["true retention", "target"],
            [round(actual, 1), round(target, 1)],
        )
        self.query_one("#chart-states", BarChart).show(
            f"Cards by state ({plural(stats.total_reviews, 'review')} ever)",
            list(STATES),
            [stats.counts.get(s, 0) for s in STATES],
        )
        per_day = {date.fromisoformat(p.day): int(p.value) for p in stats.reviews_per_day}
        today = date.fromisoformat(stats.reviews_per_day[-1].day) if stats.reviews_per_day else date.today()
        self.query_one("#stats-heatmap", Static).update(
            Content.assemble(
                heatmap(per_day, today, weeks=5),
                "\n",
                (f"Streak {plural(stats.streak, 'day')}", "bold $accent"),
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
