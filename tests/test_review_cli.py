"""`memoryrush session` and `memoryrush stats`: today's session and statistics as text."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from test_review_support import add_units, prepare

from core.host.clock import FixedClock
from core.services.bootstrap import open_services
from tui.cli.main import cli


def test_session_and_stats_commands(data_home: Path, clock: FixedClock) -> None:
    svc = open_services(data_home, clock=clock)
    prepare(svc)
    add_units(3, 2, now=int(clock.now().timestamp()))
    item = svc.review.next_card()
    assert item is not None
    svc.review.answer(item.card.id, 4)
    svc.close()
    runner = CliRunner()
    session = runner.invoke(cli, ["session", "--data-dir", str(data_home)])
    assert session.exit_code == 0, session.output
    # the CLI runs on the real clock, weeks after the fixed one: the answered card is due again
    assert "today: 1 review, 2 new" in session.output, session.output
    assert "done today: 0 answers (0 reviews, 0 new cards)" in session.output
    assert "waiting:" not in session.output  # nothing proposed: no line about it
    stats = runner.invoke(cli, ["stats", "--data-dir", str(data_home)])
    assert stats.exit_code == 0, stats.output
    assert "total reviews: 1" in stats.output and "weakest units:" in stats.output
    postpone = runner.invoke(cli, ["session", "--postpone", "0", "--data-dir", str(data_home)])
    assert postpone.exit_code == 2 and "--postpone" in postpone.output


def test_session_counts_one_of_each_in_the_singular(data_home: Path) -> None:
    from core.host.clock import Clock

    svc = open_services(data_home, clock=Clock())  # the CLI's real clock: answers are today's
    prepare(svc)
    add_units(2, 1, now=int(Clock().now().timestamp()))
    item = svc.review.next_card()
    assert item is not None
    svc.review.answer(item.card.id, 4)
    svc.close()
    session = CliRunner().invoke(cli, ["session", "--data-dir", str(data_home)])
    assert session.exit_code == 0, session.output
    assert "done today: 1 answer (0 reviews, 1 new card)" in session.output, session.output
    stats = CliRunner().invoke(cli, ["stats", "--data-dir", str(data_home)])
    assert "streak: 1 day ·" in stats.output and "over 0 reviews" in stats.output, stats.output


def test_session_says_what_waits_in_triage(data_home: Path, clock: FixedClock) -> None:
    """A new library has proposals and no cards yet: the session says where its cards will come
    from instead of only "0 reviews, 0 new"."""
    svc = open_services(data_home, clock=clock)
    prepare(svc)
    add_units(3, now=int(clock.now().timestamp()), confirm=False)
    add_units(1, now=int(clock.now().timestamp()), confirm=False)
    svc.close()
    session = CliRunner().invoke(cli, ["session", "--data-dir", str(data_home)])
    assert session.exit_code == 0, session.output
    assert "today: 0 reviews, 0 new" in session.output
    assert "waiting: 4 proposed units from 2 articles to confirm or reject" in session.output, session.output
