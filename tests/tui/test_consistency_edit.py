"""Issue 16, by keys: in Triage, an edit that turns "42 percent" into "90 percent", or "fixes"
into "never fixes", is blocked with the reason shown in the edit dialog and on the unit; the
unit cannot be accepted until the edit agrees with its quote again."""

from __future__ import annotations

from pathlib import Path

from conftest import opened, running, settle
from textual.widgets import Static, TextArea

from core.services.bootstrap import Services

ARTICLE = """# Two facts

The survey found that 42 percent of adults never visit a public library.

In the Calvin cycle, the enzyme RuBisCO fixes carbon dioxide from the air.
"""


async def _edit_until_blocked(
    pilot, app, svc: Services, find: str, change: tuple[str, str], reason: str
) -> None:  # type: ignore[no-untyped-def]
    from tui.modals.edit_unit import EditUnitModal

    screen = app.screen
    for _ in range(4):  # the unit holding `find` (skip moves to the next proposal)
        if screen.unit is not None and find in screen.unit.content:
            break
        await pilot.press("s")
        await settle(pilot)
    unit = screen.unit
    assert unit is not None and find in unit.content
    await opened(pilot, "e", EditUnitModal)
    app.screen.query_one("#edit-content", TextArea).text = unit.content.replace(*change)
    await pilot.press("ctrl+s")  # the first save shows why and keeps the dialog open
    await settle(pilot)
    assert isinstance(app.screen, EditUnitModal)
    shown = str(app.screen.query_one("#edit-issues", Static).render())
    assert "Still has errors" in shown and reason in shown
    await pilot.press("ctrl+s")  # saving again keeps the edit, which cannot be accepted
    await settle(pilot)
    stored = svc.library.unit(unit.id)
    assert stored is not None and not stored.acceptable
    assert any(i.code.startswith("claim_contradicts_") and reason in i.message for i in stored.issues)
    card = " ".join(str(screen.query_one("#triage-unit", Static).render()).split())
    assert (
        "ERROR claim_contradicts_" in card and f"the content contradicts the quote: {reason}" in card
    )  # on the card, under the quote
    await pilot.press("a")  # refused: still proposed
    await settle(pilot)
    assert svc.library.unit(unit.id).status == "proposed"  # type: ignore[union-attr]
    await pilot.press("e")  # put the quote's fact back: acceptable again
    await settle(pilot)
    app.screen.query_one("#edit-content", TextArea).text = unit.content
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert svc.library.unit(unit.id).acceptable  # type: ignore[union-attr]


async def test_edits_that_contradict_the_quote_are_blocked_with_the_reason(
    svc: Services, tmp_path: Path
) -> None:
    from tui.screens.triage import TriageScreen

    path = tmp_path / "facts.md"
    path.write_text(ARTICLE, encoding="utf-8")
    (outcome,) = svc.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported"
    async with running(svc) as (app, pilot):
        await opened(pilot, "t", TriageScreen)
        await _edit_until_blocked(
            pilot,
            app,
            svc,
            "42 percent",
            ("42 percent", "90 percent"),
            "the quote says 42 percent, the claim 90 percent",
        )
        await _edit_until_blocked(
            pilot,
            app,
            svc,
            "fixes",
            ("fixes", "never fixes"),
            "the claim negates the quote: 'never fixes' vs 'fixes'",
        )
