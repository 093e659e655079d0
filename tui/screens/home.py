"""Home: what is due today, what waits for triage, the streak and a small review heatmap."""

from __future__ import annotations

from datetime import date
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from core.text.words import plural
from tui.screens.base import BaseScreen
from tui.widgets.heatmap import heatmap
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar


class HomeScreen(BaseScreen):
    """The start page: counts and the doors to every other screen."""

    HELP_NAME = "Home"
    BINDINGS = [
        Binding("r", "app.review", "Review", id="home.review"),
        Binding("t", "triage", "Triage", id="home.triage"),
        Binding("i", "import", "Import", id="home.import"),
        Binding("l", "library", "Library", id="home.library"),
        Binding("s", "stats", "Stats", id="home.stats"),
        Binding("comma", "settings", "Settings", id="home.settings"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="home-body"):
            yield Static(Content("Loading …"), id="home-figures")
            yield Static(id="home-heatmap")
            yield Static(
                Content(
                    "r review · t triage · i import · l library · / search · s stats · , settings · ? help"
                ),
                id="home-hint",
            )
        yield KeyBar()

    def refresh_data(self) -> None:
        # After the first frame: the worker's imports and queries don't hold up the first paint.
        self.mr_app.after_first_frame(self.load_figures)

    @work(thread=True, exclusive=True, name="home-figures", exit_on_error=False)
    def load_figures(self) -> None:
        """Thread worker: counts and stats can take a moment on a big library."""
        figures = self._figures()
        self.app.call_from_thread(self.show_figures, figures)

    def show_figures(self, figures: dict[str, Any]) -> None:
        rows = [
            ("Due today", figures.get("due", 0)),
            ("New available", figures.get("new", 0)),
            ("Proposals waiting", figures.get("proposed", 0)),
            ("Confirmed units", figures.get("confirmed", 0)),
            ("Articles", figures.get("articles", 0)),
            ("Streak", plural(figures.get("streak", 0), "day")),
        ]
        text = Content("\n").join(
            Content.assemble((f"{name:<18}", "bold"), (str(value), "$accent")) for name, value in rows
        )
        self.query_one("#home-figures", Static).update(text)
        per_day = figures.get("per_day") or {}
        self.query_one("#home-heatmap", Static).update(heatmap(per_day, self.services.clock.now().date()))

    def _figures(self) -> dict[str, Any]:
        svc = self.services
        result: dict[str, Any] = {
            "proposed": svc.library.unit_count("proposed"),
            "confirmed": svc.library.unit_count("confirmed"),
            "articles": svc.library.article_count(),
        }
        result.update(review_figures(svc))
        return result

    def action_triage(self) -> None:
        from tui.screens.triage import TriageScreen

        self.app.push_screen(TriageScreen())

    def action_import(self) -> None:
        from tui.screens.import_screen import ImportScreen

        self.app.push_screen(ImportScreen())

    def action_library(self) -> None:
        from tui.screens.library import LibraryScreen

        self.app.push_screen(LibraryScreen())

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen())

    def action_settings(self) -> None:
        from tui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())


def review_figures(svc: Any) -> dict[str, Any]:
    """Due today / new available / streak / reviews per day, from the stats service."""
    stats = svc.stats.summary()
    return {
        "due": int(stats.forecast[0].value) if stats.forecast else 0,
        "new": stats.counts.get("new", 0),
        "streak": stats.streak,
        "per_day": {date.fromisoformat(p.day): int(p.value) for p in stats.reviews_per_day},
    }
