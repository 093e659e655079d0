"""Home: what is due today, what waits for triage, the streak and the review heatmap.

Laid out to be read at a glance every morning: two cards side by side, each with one large
number (cards due today; proposals waiting), what it is made of, and the key that starts it;
under them one line of streak and totals; then the heatmap, as many weeks as the width holds
(up to a year). A tall terminal (40 rows or more) also shows the next seven days' reviews and
the articles added last. On a large terminal the block is centred with a bounded width.
"""

from __future__ import annotations

from datetime import date
from importlib import import_module
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Digits, Static

from core.text.words import plural
from tui import runner
from tui.messages import FirstFrameShown
from tui.safe import content
from tui.screens.base import BaseScreen
from tui.widgets.heatmap import heatmap, weeks_for
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from core.domain.home import HomeFigures  # (the worker's module builds it, after the first frame)

BODY_WIDTH = 112  # the widest the Home block grows on a large terminal (a year of heatmap)


# Home's doors: the screen each key opens, by module and class (imported when it opens).
DOORS = {
    "triage": ("tui.screens.triage", "TriageScreen"),
    "import": ("tui.screens.import_screen", "ImportScreen"),
    "library": ("tui.screens.library", "LibraryScreen"),
    "browse": ("tui.screens.browse", "BrowseScreen"),
    "schedule": ("tui.screens.schedule", "ScheduleScreen"),
    "stats": ("tui.screens.stats", "StatsScreen"),
    "settings": ("tui.screens.settings", "SettingsScreen"),
}

TALL = 40  # rows from which the week ahead and the latest articles are shown


class HomeScreen(BaseScreen):
    """The start page: counts and the doors to every other screen."""

    HELP_NAME = "Home"
    BINDINGS = [
        Binding("r", "app.review", "Review", id="home.review"),
        Binding("t", "go('triage')", "Triage", id="home.triage"),
        Binding("i", "go('import')", "Import", id="home.import"),
        Binding("l", "go('library')", "Library", id="home.library"),
        Binding("b", "go('browse')", "Browse", id="home.browse"),
        Binding("w", "go('schedule')", "Schedule", id="home.schedule"),
        Binding("s", "go('stats')", "Stats", id="home.stats"),
        Binding("comma", "go('settings')", "Settings", id="home.settings"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._figures: HomeFigures | None = None
        # The terminal's size is known already: its classes set before anything is styled. Set
        # by the first Resize instead, they restyled every widget of the screen once more before
        # the first frame (23M instructions, callgrind).
        self._fit(self.app.size.height, update=False)
        self._resumed = False

    @on(events.ScreenResume)
    def _first_resume(self, event: events.ScreenResume) -> None:
        """(Before Screen's own handler, which reads `refresh_styles`.) The first resume comes
        right after Home was mounted and every widget styled: styling them all again (Textual
        does on every resume) changed nothing on the first frame but cost 22M instructions
        before it (callgrind; tests/tui/test_home_layout.py checks the picture). Later resumes,
        after another screen, restyle as before."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def _fit(self, height: int, *, update: bool = True) -> None:
        self.set_class(height >= TALL, "-tall", update=update)
        self.set_class(height < 30, "-short", update=update)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="home-body"):
            with Horizontal(id="home-cards"):
                with Vertical(id="home-review", classes="home-card"):
                    yield Static(Content.styled("Review today", "bold"), classes="home-card-title")
                    yield Digits("·", id="home-due")
                    # what it is made of, then its key: one widget (two cost 5.7M instructions more
                    # before the first frame), two lines until the figures come
                    yield Static(Content("Loading …\n"), id="home-due-detail", classes="home-card-detail")
                with Vertical(id="home-triage", classes="home-card"):
                    yield Static(Content.styled("Waiting for you", "bold"), classes="home-card-title")
                    yield Digits("·", id="home-proposed")
                    yield Static(Content("\n"), id="home-proposed-detail", classes="home-card-detail")
            yield Static(id="home-totals")
            yield Static(id="home-heatmap")
            if self.has_class("-tall"):
                yield self._more()
        yield KeyBar()

    def _more(self) -> Horizontal:
        """The week ahead and the latest articles: made only once the terminal is tall (on a
        smaller one their three widgets, never shown, were 10M instructions before the first
        frame, callgrind). A terminal that grows tall gets them then (on_resize)."""
        figures = self._figures
        return Horizontal(
            Static(week_ahead(figures.week) if figures else "", id="home-week"),
            Static(latest_articles(figures.latest) if figures else "", id="home-latest"),
            id="home-more",
        )

    def refresh_data(self) -> None:
        # After the first frame: the worker's imports and queries don't hold up the first paint.
        if self.host.first_frame_shown:
            self.load_figures()

    def on_first_frame_shown(self, message: FirstFrameShown) -> None:
        self.load_figures()

    class FiguresRead(runner.Done["HomeFigures"]):
        """Today's figures were read. Handled by `on_home_screen_figures_read`."""

    def load_figures(self) -> None:
        """In a worker: counts and stats can take a moment on a big library."""
        runner.start(
            self, "reading today's figures", self.services.home.figures, self.FiguresRead, exclusive=True
        )

    def on_home_screen_figures_read(self, message: FiguresRead) -> None:
        self.show_figures(message.result)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)  # nothing to do when the size classes have not changed
        if self.has_class("-tall") and not self.query("#home-more"):
            self.query_one("#home-body").mount(self._more())
        if self._figures is not None:  # more or fewer weeks of heatmap
            self._show_heatmap(self._figures)

    def show_figures(self, figures: HomeFigures) -> None:
        self._figures = figures
        self.query_one("#home-due", Digits).update(str(figures.due))
        self.query_one("#home-proposed", Digits).update(str(figures.proposed))
        self.query_one("#home-due-detail", Static).update(
            Content("\n").join(
                [
                    Content(f"{plural(figures.due, 'card')} due · {figures.new} new"),
                    Content.styled(
                        f"{figures.learning} learning · {figures.tomorrow} due tomorrow", "$text-muted"
                    ),
                    key_hint("r", "start today's session"),
                ]
            )
        )
        if figures.articles == 0:
            detail = Content("Nothing imported yet.")
            hint = key_hint("i", "import an article")
        else:
            detail = Content.assemble(
                f"{plural(figures.proposed, 'proposed unit')} to confirm\n",
                (f"from {plural(figures.proposing, 'article')} in the library", "$text-muted"),
            )
            hint = (
                key_hint("t", "confirm or reject them") if figures.proposed else key_hint("i", "import more")
            )
        self.query_one("#home-proposed-detail", Static).update(Content("\n").join([detail, hint]))
        self.query_one("#home-totals", Static).update(totals(figures))
        self._show_heatmap(figures)
        if self.query("#home-more"):
            self.query_one("#home-week", Static).update(week_ahead(figures.week))
            self.query_one("#home-latest", Static).update(latest_articles(figures.latest))

    def _show_heatmap(self, figures: HomeFigures) -> None:
        box = self.query_one("#home-heatmap", Static)
        width = box.content_region.width or min(self.size.width, BODY_WIDTH) - 4
        weeks = weeks_for(width)
        today = self.services.clock.now().date()
        box.update(heatmap(figures.per_day, today, weeks=weeks))

    def action_go(self, door: str) -> None:
        """Open the screen behind one of Home's doors (imported then: start-up reads none)."""
        module, name = DOORS[door]
        self.app.push_screen(getattr(import_module(module), name)())


def totals(figures: HomeFigures) -> Content:
    """The line under the cards: streak and totals; in an empty library, what import reads."""
    if figures.articles == 0:
        return Content.assemble(("Importable: ", "bold"), " ".join(figures.formats))
    return Content.assemble(
        ("Streak ", "bold"),
        (plural(figures.streak, "day"), "bold $accent"),
        "   ·   ",
        (str(figures.confirmed), "bold"),
        f" confirmed {'unit' if figures.confirmed == 1 else 'units'} to remember   ·   ",
        (str(figures.articles), "bold"),
        f" {'article' if figures.articles == 1 else 'articles'}",
    )


def key_hint(key: str, what: str) -> Content:
    return Content.assemble((f" {key} ", "bold reverse"), (f"  {what}", "$text-muted"))


def week_ahead(week: list[tuple[str, int]]) -> Content:
    """The next seven days' cards due, one bar a day."""
    peak = max([n for _, n in week] or [0])
    lines = [Content.styled("The week ahead", "bold")]
    for i, (day, n) in enumerate(week):
        name = "today" if i == 0 else date.fromisoformat(day).strftime("%a %d")
        bar = "█" * (round(20 * n / peak) if peak else 0)
        lines.append(Content.assemble((f"{name:<8}", "$text-muted"), (bar, "$primary"), f" {n}"))
    return Content("\n").join(lines)


def latest_articles(latest: list[tuple[str, int, int]]) -> Content:
    """The articles added last, with what waits in each (titles are untrusted text)."""
    lines = [Content.styled("Added lately", "bold")]
    for title, proposed, confirmed in latest:
        lines.append(
            Content.assemble(
                content(title, single_line=True).truncate(44, ellipsis=True),
                (f"  {proposed} proposed · {confirmed} confirmed", "$text-muted"),
            )
        )
    if not latest:
        lines.append(Content.styled("Nothing yet: i imports an article", "$text-muted"))
    return Content("\n").join(lines)
