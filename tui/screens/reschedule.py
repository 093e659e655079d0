"""After the desired retention changed (Settings, Schedule): the workload change first (worked
out in a worker: one pass over the review cards), then, if asked, every review card re-timed in
a journalled bulk write, the `Reschedule` command (`u` in Browse or Schedule takes it back).

A base of the two screens rather than a function of theirs: the worker's results are messages,
and a message is handled by the screen that asked.
"""

from __future__ import annotations

from functools import partial

from core.domain.browse import BulkResult, WorkloadChange
from core.services.commands.schedule import Reschedule
from core.text.words import plural
from tui import runner
from tui.safe import notify
from tui.screens.base import BaseScreen


def change_text(change: WorkloadChange) -> str:
    return (
        f"{plural(change.cards, 'review card')} re-timed for {change.new_retention:.0%} "
        f"(from {change.old_retention:.0%}): reviews in the next 30 days {change.old_total} → {change.new_total}."
    )


class OffersReschedule(BaseScreen):
    """A screen where the desired retention is changed."""

    class WorkloadWorkedOut(runner.Done[WorkloadChange]):
        """What the new retention would do to the next 30 days. Handled by
        `on_offers_reschedule_workload_worked_out` (the question, then the reschedule)."""

    class Rescheduled(runner.Done[BulkResult]):
        """The review cards were re-timed. Handled by `on_offers_reschedule_rescheduled`."""

    def offer_reschedule(self, old: float, new: float) -> None:
        """After the desired retention changed: the workload change, then reschedule if asked."""
        change = partial(self.services.schedule.retention_change, new, old)
        runner.start(self, "working out the new workload", change, self.WorkloadWorkedOut, group="retention")

    def on_offers_reschedule_workload_worked_out(self, message: WorkloadWorkedOut) -> None:
        from tui.modals.prompt import Confirm

        change = message.result
        self.app.push_screen(
            Confirm("Reschedule your review cards for the new retention?", change_text(change)),
            partial(self._answered, change.new_retention),
        )

    def _answered(self, new: float, yes: bool | None) -> None:
        from tui.screens.bulk import in_bulk_worker

        if yes:
            notify(self.app, "Rescheduling your review cards …")
            in_bulk_worker(self, Reschedule(new), self.Rescheduled)

    def on_offers_reschedule_rescheduled(self, message: Rescheduled) -> None:
        notify(
            self.app,
            f"Rescheduled {plural(message.result.cards, 'card')} · u in Browse or Schedule undoes it",
        )
        self.refresh_data()
