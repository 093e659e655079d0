"""Issue 16, Triage by keys only: cycle a blank, edit the second question, split a unit, re-pick
its evidence, keep a contradiction with a reason, and undo an accept-all as one batch."""

from __future__ import annotations

from pathlib import Path

from conftest import SIZE, imported, make_app, opened, running, settle
from textual.widgets import Input, TextArea

from core.services.bootstrap import Services

ARTICLE = """# Light and life

Photosynthesis converts light energy into chemical energy in the chloroplasts of green plants. The Calvin cycle then fixes carbon dioxide into sugars.

The survey found that 42 percent of adults never visit a public library.

Mitochondria release the energy stored in glucose through cellular respiration, and they do so in every animal cell.
"""


def _import(svc: Services, tmp_path: Path) -> int:
    return imported(svc, tmp_path / "light.md", ARTICLE)


async def _skip_to(pilot, screen, words: str) -> None:  # type: ignore[no-untyped-def]
    """Skip (s) to the proposal whose content holds `words`."""
    for _ in range(4):
        if words in screen.unit.content:
            return
        await pilot.press("s")
        await settle(pilot)
    assert words in screen.unit.content


async def _triage(pilot, app):  # type: ignore[no-untyped-def]
    from tui.screens.triage import TriageScreen

    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)
    assert isinstance(app.screen, TriageScreen) and app.screen.unit is not None
    return app.screen


async def test_cycle_a_blank_then_undo_it(svc: Services, tmp_path: Path) -> None:
    _import(svc, tmp_path)
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _triage(pilot, app)
        unit = screen.unit
        blanks = [q.expected_answer for q in unit.questions if q.kind == "cloze"]
        await pilot.press("b")
        await settle(pilot)
        after = svc.library.unit(unit.id)
        new = [q for q in after.questions if q.kind == "cloze"]
        assert new and [q.expected_answer for q in new] != blanks
        assert "____" in new[0].question and new[0].expected_answer in unit.content
        await pilot.press("u")
        await settle(pilot)
        assert [q.expected_answer for q in svc.library.unit(unit.id).questions if q.kind == "cloze"] == blanks


async def test_edit_the_second_question_add_one_delete_one(svc: Services, tmp_path: Path) -> None:
    from tui.modals.edit_unit import EditUnitModal

    _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        screen = await _triage(pilot, app)
        unit = screen.unit
        form = await opened(pilot, "e", EditUnitModal)
        rows = form.rows()
        if len(rows) < 2:  # a unit with one question: add the second first
            await pilot.press("ctrl+n")
            await settle(pilot)
            rows = form.rows()
        second = rows[1]
        second.query_one(
            ".edit-question", Input
        ).value = "What does photosynthesis convert light energy into?"
        second.query_one(".edit-answer", Input).value = "chemical energy"
        await pilot.press("ctrl+n")  # a third, then deleted again
        await settle(pilot)
        assert len(form.rows()) == 3
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert len(form.rows()) == 2
        await pilot.press("ctrl+s")
        await settle(pilot)
        if isinstance(app.screen, EditUnitModal):  # warnings shown first
            await pilot.press("ctrl+s")
            await settle(pilot)
        stored = svc.library.unit(unit.id)
        assert len(stored.questions) == 2
        assert stored.questions[1].question == "What does photosynthesis convert light energy into?"
        assert stored.questions[1].expected_answer == "chemical energy"
        assert stored.questions[0].question == unit.questions[0].question


async def test_split_a_unit_in_two_then_undo(svc: Services, tmp_path: Path) -> None:
    article_id = _import(svc, tmp_path)
    units = svc.library.units(article_id, ["proposed"])
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _triage(pilot, app)
        await _skip_to(pilot, screen, ",")  # the unit with a clause break
        unit = screen.unit
        await pilot.press("S")
        await settle(pilot)
        after = svc.library.units(article_id, ["proposed"])
        assert len(after) == len(units) + 1
        first = svc.library.unit(unit.id)
        (second,) = [u for u in after if u.id not in {x.id for x in units}]
        assert first.content and second.content and first.content != unit.content
        assert (
            first.content == "Mitochondria release the energy stored in glucose through cellular respiration"
        )
        assert second.content == "and they do so in every animal cell."
        await pilot.press("u")
        await settle(pilot)
        assert svc.library.unit(unit.id).content == unit.content
        # issue 32: the second half is gone, not left in the Trash
        assert svc.library.unit(second.id) is None and svc.browse.trash_count() == 0
        assert [u.id for u in svc.library.units(article_id, ["proposed"])] == [u.id for u in units]


async def test_undo_after_accept_all_takes_the_whole_batch_back(svc: Services, tmp_path: Path) -> None:
    article_id = _import(svc, tmp_path)
    waiting = [u.id for u in svc.library.units(article_id, ["proposed"]) if u.acceptable]
    assert len(waiting) >= 2
    app = make_app(svc)
    async with app.run_test(size=SIZE) as pilot:
        await _triage(pilot, app)
        await pilot.press("A")
        await settle(pilot)
        assert all(svc.library.unit(i).status == "confirmed" for i in waiting)
        await pilot.press("u")
        await settle(pilot)
        assert all(svc.library.unit(i).status == "proposed" for i in waiting)


async def test_repick_evidence_with_the_selection(svc: Services, tmp_path: Path) -> None:
    _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        screen = await _triage(pilot, app)
        unit = screen.unit
        before = [e.quote for e in unit.evidence]
        await pilot.press("home", "v", "right_curly_bracket", "E")  # the whole first paragraph
        await settle(pilot)
        stored = svc.library.unit(unit.id)
        (quote,) = [e.quote for e in stored.evidence]
        assert quote.startswith("Photosynthesis converts") and quote.endswith("into sugars.")
        await pilot.press("u")
        await settle(pilot)
        assert [e.quote for e in svc.library.unit(unit.id).evidence] == before


async def test_a_contradiction_is_blocked_until_kept_with_a_reason(svc: Services, tmp_path: Path) -> None:
    from tui.modals.edit_unit import EditUnitModal
    from tui.modals.reason import ReasonModal

    _import(svc, tmp_path)
    async with running(svc) as (app, pilot):
        screen = await _triage(pilot, app)
        await _skip_to(pilot, screen, "42 percent")
        unit = screen.unit
        await opened(pilot, "e", EditUnitModal)
        app.screen.query_one("#edit-content", TextArea).text = unit.content.replace(
            "42 percent", "90 percent"
        )
        await pilot.press("ctrl+s", "ctrl+s")
        await settle(pilot)
        assert not svc.library.unit(unit.id).acceptable
        await pilot.press("a")  # refused
        await settle(pilot)
        assert svc.library.unit(unit.id).status == "proposed"
        await opened(pilot, "exclamation_mark", ReasonModal)
        await pilot.press(*"newer survey", "enter")
        await settle(pilot)
        kept = svc.library.unit(unit.id)
        assert kept.acceptable and any(i.kept == "newer survey" and i.keepable for i in kept.issues)
        await pilot.press("a")
        await settle(pilot)
        assert svc.library.unit(unit.id).status == "confirmed"
