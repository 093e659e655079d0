"""Stats charts read as counts: whole-number axes, every bar of a few named quantities with
its label and value, at 80x24 as at 120x36."""

from __future__ import annotations

import re

import pytest
from conftest import running, settle
from test_snapshots import confirm_and_review

from core.services.bootstrap import Services
from tui.screens.stats import STATES
from tui.widgets.chart import BarChart, BarList, whole_ticks


def test_whole_ticks_step_1_2_5_and_reach_the_top() -> None:
    assert whole_ticks(3) == [0, 1, 2, 3]
    assert whole_ticks(0) == [0, 1]
    assert whole_ticks(24) == [0, 5, 10, 15, 20, 25]
    assert whole_ticks(24, most=3) == [0, 10, 20, 30]
    assert whole_ticks(90) == [0, 20, 40, 60, 80, 100]
    assert whole_ticks(3, most=1) == [0, 5]
    assert whole_ticks(1234) == [0, 500, 1000, 1500]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_stats_axes_are_whole_and_every_state_is_labelled(
    samples: Services, size: tuple[int, int]
) -> None:
    confirm_and_review(samples, 3)
    async with running(samples, size=size) as (app, pilot):
        await pilot.press("s")
        await settle(pilot)
        await pilot.pause(0.2)
        screen = app.screen
        for chart in screen.query(BarChart):
            drawn = str(chart.render())
            assert not re.search(r"\d\.\d", drawn), drawn  # 0.00 1.50 2.50 3.00 before
            assert chart.size.height >= 8, chart.size  # not squashed to a row of bars at 80x24
        reviews = re.sub(r"\x1b\[[0-9;]*m", "", str(screen.query_one("#chart-reviews", BarChart).render()))
        assert "11-02" in reviews  # today's bar has its date
        lines = [line.plain for line in screen.query_one("#chart-states", BarList).render().split("\n")]
        counts = samples.stats.summary().counts
        for state in STATES:
            row = next(line for line in lines if line.startswith(state + " "))
            assert row.rstrip().endswith(f" {counts.get(state, 0)}"), row
        retention = screen.query_one("#chart-retention", BarList).render().plain
        assert "target" in retention and "90%" in retention
