"""session / stats / optimize: today's review session and statistics as text, FSRS parameter fitting.

(`memoryrush review`, which opens the app on the session, lives in app_cmds.)
"""

from __future__ import annotations

from pathlib import Path

import click

from core.text.words import plural
from tui.cli.common import data_dir_option, fail, out, services


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


@click.command("session")
@click.option(
    "--postpone",
    type=click.IntRange(1, 365),
    default=None,
    metavar="DAYS",
    help="First spread overdue reviews beyond today's cap over DAYS days, least harmful first.",
)
@data_dir_option
def session_cmd(postpone: int | None, data_dir: Path | None) -> None:
    """Print today's review session: what is due, what is done, any backlog (`memoryrush review` opens it).

    Only reads (it runs beside the open app); --postpone writes, so it needs the library to itself."""
    from core.services.commands.schedule import PostponeBacklog

    with services(data_dir, exclusive=postpone is not None) as svc:
        if postpone is not None:
            moved = svc.run(PostponeBacklog(postpone))
            out(
                f"postponed {plural(moved, 'overdue card')} over the next {plural(postpone, 'day')} "
                "(undo in the review screen)"
            )
        s = svc.review.start_session(wait=True) if postpone is not None else svc.review.preview_session()
        out(
            f"today: {plural(s.reviews_left, 'review')}, {s.new_left} new, "
            f"{s.learning_due} learning (due within 20 minutes)"
        )
        out(
            f"done today: {plural(s.answers_today, 'answer')} "
            f"({plural(s.reviews_done, 'review')}, {plural(s.new_done, 'new card')})"
        )
        if s.overdue_backlog:
            out(
                f"backlog: {plural(s.overdue_backlog, 'overdue card')} beyond today's cap "
                "(memoryrush session --postpone 7)"
            )
        proposed = svc.library.unit_count("proposed")
        if proposed:  # where the cards come from: a new library has only these
            out(
                f"waiting: {plural(proposed, 'proposed unit')} from "
                f"{plural(svc.library.articles_with('proposed'), 'article')} to confirm or reject "
                "(memoryrush, then t: Triage)"
            )


@click.command("stats")
@data_dir_option
def stats_cmd(data_dir: Path | None) -> None:
    """Print memory statistics: cards by state, retrievability, true retention, streak, forecast."""
    with services(data_dir, exclusive=False) as svc:
        st = svc.stats.summary()
        out("cards: " + ", ".join(f"{k} {v}" for k, v in st.counts.items()))
        out(f"average retrievability now: {_pct(st.average_retrievability)}")
        out(
            f"true retention (30 days): {_pct(st.true_retention)} "
            f"over {plural(st.true_retention_reviews, 'review')}"
        )
        out(f"streak: {plural(st.streak, 'day')} · total reviews: {st.total_reviews}")
        out("due next 7 days: " + " ".join(f"{p.day[5:]}:{int(p.value)}" for p in st.forecast[:7]))
        weak = svc.stats.unit_strengths(limit=5)
        if weak:
            out("weakest units:")
            for u in weak:
                out(f"  {_pct(u.retrievability):>6}  {u.content[:90]}")


@click.command("optimize")
@click.option(
    "--reschedule", is_flag=True, help="Also recompute every card's schedule with the new parameters."
)
@click.option(
    "--min-reviews",
    type=click.IntRange(1),
    default=None,
    help="Fewest reviews needed to fit (default 400).",
)
@data_dir_option
def optimize_cmd(reschedule: bool, min_reviews: int | None, data_dir: Path | None) -> None:
    """Fit FSRS parameters to your own review log (fsrs-rs-python) and show old vs new log loss."""
    from core.services.commands.schedule import Optimize

    with services(data_dir) as svc:
        r = svc.run(Optimize(reschedule=reschedule, min_reviews=min_reviews))
        if isinstance(r, str):  # too few reviews: why
            fail(f"cannot optimize yet: {r}")
            return
        out(f"fitted on {plural(r.reviews, 'review')} ({plural(r.items, 'history', 'histories')})")
        out(f"log loss: old {r.old_log_loss:.4f} -> new {r.new_log_loss:.4f}")
        out(f"RMSE (bins): old {r.old_rmse:.4f} -> new {r.new_rmse:.4f}")
        if r.saved:
            out("new parameters saved: " + ", ".join(f"{p:.4f}" for p in r.new_parameters))
            if reschedule:
                out(f"rescheduled {plural(r.rescheduled, 'card')}")
        else:
            out("the current parameters fit at least as well; nothing changed")


COMMANDS: list[click.Command] = [session_cmd, stats_cmd, optimize_cmd]
