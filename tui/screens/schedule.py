"""Schedule: the next 30 days' reviews, what each retention choice would make of them, easy
days and vacations (set here, applied at once to the cards already scheduled and to every
answer after), a retention change with its workload first, review ahead, postpone, optimize.

Reached from Home (w) and the palette. The figures are read in a named worker (one pass over
the review cards for every retention: ~2 s CPU on a million), and every change is a command
(core/services/commands/schedule.py) run in one too; those that move cards one at a time
(in_bulk_worker: an easy day moves ~100k cards of a million in ~5 s, a reschedule re-times all
of them), so the screen keeps answering meanwhile and no frame waits for the write lock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from core.domain.browse import BulkResult, Forecast
from core.domain.review import OptimizeResult
from core.host.config import Config
from core.services.commands import Command
from core.services.commands.schedule import (
    AddVacation,
    ClearVacations,
    Optimize,
    Postpone,
    ReviewAhead,
    SetEasyDays,
)
from core.services.commands.settings import ChangeSetting, NotSaved
from core.text.words import plural
from tui import runner
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.screens.bulk import BulkUndone, in_bulk_worker, say_undone, undo_bulk
from tui.screens.reschedule import RescheduleOffer
from tui.widgets.chart import BarChart
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def days_line(forecast: Forecast) -> str:
    easy = " · ".join(f"{d} {f:g}" for d, f in zip(WEEKDAYS, forecast.easy_days, strict=True))
    off = ", ".join(a if a == b else f"{a}..{b}" for a, b in forecast.vacations) or "none"
    said = "".join(f"\n⚠ {problem}" for problem in forecast.problems)
    return f"Easy days (load per weekday): {easy}\nVacations (no reviews): {off}{said}"


def retention_line(forecast: Forecast, current: float) -> str:
    parts = [f"{r:.0%}{' (yours)' if abs(r - current) < 1e-9 else ''}: {n}" for r, n in forecast.by_retention]
    return "Reviews in the next 30 days at each desired retention — " + " · ".join(parts)


class ScheduleScreen(BaseScreen):
    """The forecast and the tools that shape it."""

    HELP_NAME = "Schedule"
    BINDINGS = [
        Binding("e", "easy_days", "Easy days", id="schedule.easy"),
        Binding("v", "vacation", "Vacation", id="schedule.vacation"),
        Binding("V", "clear_vacations", "Clear vacations", id="schedule.clear", show=False),
        Binding("r", "retention", "Retention", id="schedule.retention"),
        Binding("a", "ahead", "Review ahead", id="schedule.ahead"),
        Binding("p", "postpone", "Postpone", id="schedule.postpone"),
        Binding("O", "optimize", "Optimize", id="schedule.optimize"),
        Binding("u", "undo", "Undo", id="schedule.undo"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.forecast: Forecast | None = None
        self.reschedule = RescheduleOffer(self)  # after `r`: the workload, then re-time if asked

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(content("Reading the schedule …"), id="schedule-days")
        yield BarChart(id="schedule-chart")
        yield Static(id="schedule-retention")
        yield Static(id="schedule-result")
        yield KeyBar()

    class ForecastRead(runner.Done[Forecast]):
        """The forecast was read. Handled by `on_schedule_screen_forecast_read`."""

    class CardsMoved(Message):
        """A change moved cards (`result`), or was refused before anything was written (why: a
        sentence, said after `refused`). Handled by `on_schedule_screen_cards_moved`."""

        def __init__(self, said: str, refused: str, result: BulkResult | str) -> None:
            super().__init__()
            self.said = said
            self.refused = refused
            self.result = result

    class VacationsCleared(runner.Done[None]):
        """No vacations now. Handled by `on_schedule_screen_vacations_cleared`."""

    class RetentionSaved(Message):
        """The desired retention was saved (`result`: the settings now, or why not) in place of
        `old`. Handled by `on_schedule_screen_retention_saved`."""

        def __init__(self, old: float, result: Config | NotSaved) -> None:
            super().__init__()
            self.old = old
            self.result = result

    class Optimized(runner.Done[OptimizeResult | str]):
        """FSRS was fitted to the reviews, or refused (too few: a sentence). Handled by
        `on_schedule_screen_optimized`."""

    def refresh_data(self) -> None:
        self._load()

    def _load(self) -> None:
        runner.start(
            self,
            "reading the forecast",
            self.services.schedule.forecast,
            self.ForecastRead,
            group="schedule",
            exclusive=True,
        )

    def on_schedule_screen_forecast_read(self, message: ForecastRead) -> None:
        self.show(message.result)

    def show(self, forecast: Forecast) -> None:
        self.forecast = forecast
        self.query_one("#schedule-days", Static).update(content(days_line(forecast)))
        labels = [date.fromisoformat(d).strftime("%d") for d in forecast.days]
        self.query_one(BarChart).show(
            "Reviews due per day (today first, overdue and learning cards included)",
            labels,
            list(forecast.due),
            every=5,
        )
        current = self.services.config.desired_retention
        self.query_one("#schedule-retention", Static).update(content(retention_line(forecast, current)))

    def _move(self, command: Command[BulkResult | str], said: str, refused: str = "Not done") -> None:
        """A command that moves cards, in the journal's worker (its `what` said on screen
        meanwhile). A value refused before anything is written is said as `refused: why`; any
        other failure is the worker's report, under the command's `what`."""
        self.query_one("#schedule-result", Static).update(content(f"{command.what.capitalize()} …"))
        in_bulk_worker(self, command, partial(self.CardsMoved, said, refused), failed=self._not_moved)

    def _not_moved(self, error: Exception) -> None:
        """The app's notice said why: the line that said it was under way goes."""
        self.query_one("#schedule-result", Static).update("")

    def on_schedule_screen_cards_moved(self, message: CardsMoved) -> None:
        if isinstance(message.result, str):
            self.query_one("#schedule-result", Static).update("")
            notify(self.app, f"{message.refused}: {message.result}", severity="warning")
        else:
            self._said(message.result, message.said)

    def _said(self, result: BulkResult, what: str) -> None:
        self.query_one("#schedule-result", Static).update("")
        moved = f"{plural(result.cards, 'card')} moved" if result.cards else "no card had to move"
        notify(self.app, f"{what}: {moved}" + (" · u undoes it" if result.journal_id else ""))
        self._load()

    def _ask(self, question: str, value: str, then: Callable[[str], None]) -> None:
        from tui.modals.prompt import Ask

        self.app.push_screen(Ask(question, value=value), lambda text: then(text) if text else None)

    def action_easy_days(self) -> None:
        shown = self.forecast.easy_days if self.forecast is not None else (1.0,) * 7
        current = " ".join(f"{f:g}" for f in shown)
        self._ask(
            "Load per weekday, Monday first (1 a full day, 0.5 half, 0 none)", current, self._easy_answered
        )

    def _easy_answered(self, text: str) -> None:
        self._move(SetEasyDays(text), "Easy days set", "Easy days not set")

    def action_vacation(self) -> None:
        self._ask(
            "Vacation: first and last day (YYYY-MM-DD..YYYY-MM-DD, or one day)", "", self._vacation_answered
        )

    def _vacation_answered(self, text: str) -> None:
        self._move(AddVacation(text), "Vacation added", "Vacation not added")

    def action_clear_vacations(self) -> None:
        runner.run(self, ClearVacations(), self.VacationsCleared)

    def on_schedule_screen_vacations_cleared(self, message: VacationsCleared) -> None:
        notify(self.app, "No vacations (cards moved for them stay where they are; u undoes a move)")
        self._load()

    def action_retention(self) -> None:
        current = self.services.config.desired_retention
        self._ask(
            f"New desired retention (now {current:g}; 0.70 to 0.99)", f"{current:g}", self._retention_answered
        )

    def _retention_answered(self, text: str) -> None:
        try:
            new = float(text)
        except ValueError:
            notify(self.app, f"{text!r} is not a number", severity="warning")
            return
        if not 0.70 <= new <= 0.99:
            notify(self.app, "Desired retention is between 0.70 and 0.99", severity="warning")
            return
        old = self.services.config.desired_retention
        saved = partial(self.RetentionSaved, old)
        runner.run(self, ChangeSetting("desired_retention", new), saved, group="settings")

    def on_schedule_screen_retention_saved(self, message: RetentionSaved) -> None:
        result = message.result
        if isinstance(result, NotSaved):
            notify(self.app, f"Not saved: could not write {result.file}: {result.why}", severity="error")
            return
        self.reschedule.offer(message.old, result.desired_retention)
        self._load()

    def on_reschedule_offer_workload_worked_out(self, message: RescheduleOffer.WorkloadWorkedOut) -> None:
        self.reschedule.ask(message)

    def on_reschedule_offer_rescheduled(self, message: RescheduleOffer.Rescheduled) -> None:
        self.reschedule.done(message)

    def action_ahead(self) -> None:
        self._ask(
            "Review ahead: bring the cards due in the next how many days to today?", "1", self._ahead_answered
        )

    def _ahead_answered(self, text: str) -> None:
        if text.strip().isdigit():
            self._move(ReviewAhead(int(text)), "Review ahead")

    def action_postpone(self) -> None:
        self._ask("Postpone today's due cards (overdue too) by how many days?", "1", self._postpone_answered)

    def _postpone_answered(self, text: str) -> None:
        if text.strip().isdigit():
            self._move(Postpone(int(text)), "Postponed")

    def action_optimize(self) -> None:
        self.query_one("#schedule-result", Static).update(
            content("Optimizing: fitting FSRS to your reviews …")
        )
        fit = Optimize(reschedule=True)
        runner.run(self, fit, self.Optimized, group="optimize", exclusive=True, failed=self._not_optimized)

    def _not_optimized(self, error: Exception) -> None:
        """After the app's notice (the fit failed, the database was busy): the box says it too."""
        self.query_one("#schedule-result", Static).update(content(f"Not optimized: {error}"))

    def on_schedule_screen_optimized(self, message: Optimized) -> None:
        result = message.result
        box = self.query_one("#schedule-result", Static)
        if isinstance(result, str):
            box.update(content(f"Not optimized: {result}"))
            return
        verdict = (
            f"saved; {plural(result.rescheduled, 'card')} rescheduled"
            if result.saved
            else "not saved (no better than the parameters in use)"
        )
        box.update(
            content(
                f"Optimized on {plural(result.reviews, 'review')}: log loss {result.old_log_loss:.4f} → "
                f"{result.new_log_loss:.4f}, RMSE {result.old_rmse:.4f} → {result.new_rmse:.4f}; {verdict}."
            )
        )
        self._load()

    def action_undo(self) -> None:
        undo_bulk(self)

    def on_bulk_undone(self, message: BulkUndone) -> None:
        if say_undone(self.app, message.result):
            self.refresh_data()
