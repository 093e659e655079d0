"""After the desired retention changed (Settings, Schedule): the workload change first (worked
out in a worker: one pass over the review cards), then, if asked, every review card re-timed in
a journalled bulk write, the `Reschedule` command (`u` in Browse or Schedule takes it back).

A helper each of the two screens holds (`self.reschedule = RescheduleOffer(self)`, as Article
holds its OwnCards) rather than a base they inherit: the worker's results are messages posted to
the screen that asked, whose handlers (`on_reschedule_offer_*`) hand them back here.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from core.domain.browse import BulkResult, WorkloadChange
from core.services.commands.schedule import Reschedule
from core.text.words import plural
from tui import runner
from tui.safe import notify

if TYPE_CHECKING:
    from tui.screens.base import BaseScreen


def change_text(change: WorkloadChange) -> str:
    return (
        f"{plural(change.cards, 'review card')} re-timed for {change.new_retention:.0%} "
        f"(from {change.old_retention:.0%}): reviews in the next 30 days {change.old_total} → {change.new_total}."
    )


class RescheduleOffer:
    """What `screen` offers once its desired retention changed: the workload, then the reschedule."""

    def __init__(self, screen: BaseScreen) -> None:
        self.screen = screen

    class WorkloadWorkedOut(runner.Done[WorkloadChange]):
        """What the new retention would do to the next 30 days. Handled by the screen's
        `on_reschedule_offer_workload_worked_out`, which calls `ask`."""

    class Rescheduled(runner.Done[BulkResult]):
        """The review cards were re-timed. Handled by the screen's `on_reschedule_offer_rescheduled`,
        which calls `done`."""

    def offer(self, old: float, new: float) -> None:
        """After the desired retention changed: the workload change, then reschedule if asked."""
        change = partial(self.screen.services.schedule.retention_change, new, old)
        runner.start(
            self.screen, "working out the new workload", change, self.WorkloadWorkedOut, group="retention"
        )

    def ask(self, message: WorkloadWorkedOut) -> None:
        """The question, with the workload change; yes: the reschedule, in the journal's worker."""
        from tui.modals.prompt import Confirm

        change = message.result
        self.screen.app.push_screen(
            Confirm("Reschedule your review cards for the new retention?", change_text(change)),
            partial(self._answered, change.new_retention),
        )

    def _answered(self, new: float, yes: bool | None) -> None:
        from tui.screens.bulk import in_bulk_worker

        if yes:
            notify(self.screen.app, "Rescheduling your review cards …")
            in_bulk_worker(self.screen, Reschedule(new), self.Rescheduled)

    def done(self, message: Rescheduled) -> None:
        """Say how many cards were re-timed; the screen shows its figures again."""
        notify(
            self.screen.app,
            f"Rescheduled {plural(message.result.cards, 'card')} · u in Browse or Schedule undoes it",
        )
        self.screen.refresh_data()
