"""Notices do not pile up: the same text is shown once, and at most three stay (errors last)."""

from __future__ import annotations

from conftest import running, settle

from core.services.bootstrap import Services
from tui.app import MAX_NOTICES
from tui.safe import notify


async def test_notices_are_capped_and_not_repeated(samples: Services) -> None:
    async with running(samples, notifications=True) as (app, pilot):
        notify(app, "the disk is full", severity="error")
        for n in range(6):
            notify(app, f"Accepted {n}")
        notify(app, "Accepted 5")
        await settle(pilot)
        shown = [(str(n.message), n.severity) for n in app._notifications]
        assert len(shown) == MAX_NOTICES == 3
        assert shown == [
            ("the disk is full", "error"),
            ("Accepted 4", "information"),
            ("Accepted 5", "information"),
        ]


async def test_ten_rejects_in_triage_leave_one_toast(samples: Services) -> None:
    async with running(samples, notifications=True) as (app, pilot):
        await pilot.press("t")
        await settle(pilot)
        for _ in range(10):
            await pilot.press("r")
        await settle(pilot)
        assert len(list(app._notifications)) == 1  # "Rejected" ten times is one notice
