"""Triage's low-confidence list: every proposal, least confident first (those parked below the
floor lead it), never empty while proposals wait; and the empty queue says the right thing."""

from __future__ import annotations

from dataclasses import replace

from conftest import opened, running, screen_text, settle

from core.services.bootstrap import Services
from sample_articles import sample_paths
from tui.screens.triage import TriageScreen


async def test_the_list_shows_the_least_confident_first_with_the_default_settings(samples: Services) -> None:
    proposed = samples.library.units(None, ["proposed"])
    least = min(proposed, key=lambda u: (u.confidence, u.id))
    async with running(samples) as (app, pilot):
        await pilot.press("t", "l")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TriageScreen) and screen.low_confidence
        assert screen.unit is not None and screen.unit.id == least.id
        shown = screen_text(app)
        assert "least confident first" in shown and "press l for the low-confidence list" not in shown
        await pilot.press("s")  # skip: the next least confident
        await settle(pilot)
        second = sorted(proposed, key=lambda u: (u.confidence, u.id))[1]
        assert screen.unit is not None and screen.unit.id == second.id
        await pilot.press("l")  # back to all proposals in reading order
        await settle(pilot)
        assert not screen.low_confidence and screen.unit is not None


async def test_parked_proposals_are_pointed_to_and_an_empty_list_does_not_point_at_itself(
    svc: Services,
) -> None:
    svc.config = replace(svc.config, low_confidence_floor=0.99)  # every sample unit is parked
    for outcome in svc.library.import_paths(sample_paths()[:1], extractor="offline"):
        assert outcome.status == "imported", outcome
    async with running(svc) as (app, pilot):
        await pilot.press("t")
        await settle(pilot)
        shown = screen_text(app)
        assert "press l to see them" in shown, shown
        screen = await opened(pilot, "l", TriageScreen)
        assert screen.unit is not None
        for unit in svc.library.units(None, ["proposed"]):
            svc.curation.reject(unit.id)
        screen.show_next()
        await settle(pilot)
        shown = screen_text(app)
        assert "No proposals waiting" in shown and "low-confidence list" not in shown, shown
