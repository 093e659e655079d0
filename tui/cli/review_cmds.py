"""review / optimize: the review session (app), headless stats and FSRS parameter fitting."""

from __future__ import annotations

from pathlib import Path

import click

from tui.cli.common import data_dir_option, fail, out, services


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


@click.command("review")
@click.option(
    "--stats", "show_stats", is_flag=True, help="Print memory statistics instead of opening the app."
)
@click.option("--session", "show_session", is_flag=True, help="Print today's session (what is due) and exit.")
@click.option(
    "--postpone",
    type=int,
    default=None,
    metavar="DAYS",
    help="Spread overdue reviews beyond today's cap over DAYS days, least harmful first.",
)
@data_dir_option
def review_cmd(show_stats: bool, show_session: bool, postpone: int | None, data_dir: Path | None) -> None:
    """Review today's cards (opens the app), or print the session / statistics."""
    if not (show_stats or show_session or postpone is not None):
        from tui.cli.main import run_app

        run_app(data_dir, start="review")
        return
    with services(data_dir) as svc:
        if postpone is not None:
            if postpone < 1:
                fail("--postpone needs at least 1 day")
            moved = svc.review.postpone_backlog(days=postpone)
            out(f"postponed {moved} overdue cards over the next {postpone} days (undo with the app's undo)")
        if show_session:
            s = svc.review.start_session()
            out(f"today: {s.reviews_left} reviews, {s.new_left} new, {s.learning_due} learning due now")
            out(f"done today: {s.answers_today} answers ({s.reviews_done} reviews, {s.new_done} new cards)")
            if s.overdue_backlog:
                out(
                    f"backlog: {s.overdue_backlog} overdue cards beyond today's cap (memoryrush review --postpone 7)"
                )
        if show_stats:
            st = svc.stats.summary()
            counts = ", ".join(f"{k} {v}" for k, v in st.counts.items())
            out(f"cards: {counts}")
            out(f"average retrievability now: {_pct(st.average_retrievability)}")
            out(
                f"true retention (30 days): {_pct(st.true_retention)} over {st.true_retention_reviews} reviews"
            )
            out(f"streak: {st.streak} days · total reviews: {st.total_reviews}")
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
    from core.services.review_optimize import NotEnoughReviews

    with services(data_dir) as svc:
        try:
            r = svc.review.optimize(reschedule=reschedule, min_reviews=min_reviews)
        except NotEnoughReviews as exc:
            fail(f"cannot optimize yet: {exc}")
            return
        out(f"fitted on {r.reviews} reviews ({r.items} histories)")
        out(f"log loss: old {r.old_log_loss:.4f} -> new {r.new_log_loss:.4f}")
        out(f"RMSE (bins): old {r.old_rmse:.4f} -> new {r.new_rmse:.4f}")
        if r.saved:
            out("new parameters saved: " + ", ".join(f"{p:.4f}" for p in r.new_parameters))
            if reschedule:
                out(f"rescheduled {r.rescheduled} cards")
        else:
            out("the current parameters fit at least as well; nothing changed")


COMMANDS: list[click.Command] = [review_cmd, optimize_cmd]
