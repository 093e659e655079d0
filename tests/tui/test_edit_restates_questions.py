"""Issue 32, item 5, by keys in Triage: an edit of a unit's content ("42 percent" -> "90
percent") kept with `!` left its cloze teaching "42 percent"; the questions built from the old
content now ask about the new one. And `E` on a sentence that has nothing to do with the unit
is an error that `!` cannot keep: the unit waits until its evidence is fixed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from conftest import opened, running, settle
from textual.widgets import TextArea

from core.services.bootstrap import Services

ARTICLE = """# Light and life

Photosynthesis converts light energy into chemical energy in the chloroplasts of green plants. The Calvin cycle then fixes carbon dioxide into sugars.

The survey found that 42 percent of adults never visit a public library.

Mitochondria release the energy stored in glucose through cellular respiration, and they do so in every animal cell.
"""


@asynccontextmanager
async def triage_at(svc: Services, tmp_path: Path, words: str) -> AsyncIterator[tuple[Any, Any, Any]]:
    """ARTICLE imported, the app running on Triage at the proposal that holds `words`:
    (app, pilot, the Triage screen)."""
    from tui.screens.triage import TriageScreen

    path = tmp_path / "light.md"
    path.write_text(ARTICLE, encoding="utf-8")
    async with running(svc) as (app, pilot):
        (outcome,) = svc.library.import_paths([path], extractor="offline")
        assert outcome.status == "imported"
        await settle(pilot)
        screen = await opened(pilot, "t", TriageScreen)
        for _ in range(4):
            if words in screen.unit.content:
                break
            await pilot.press("s")
            await settle(pilot)
        else:
            raise AssertionError(f"no proposal holds {words!r}")
        yield app, pilot, screen


async def test_an_edited_fact_kept_with_a_reason_is_what_its_cloze_teaches(
    svc: Services, tmp_path: Path
) -> None:
    async with triage_at(svc, tmp_path, "42 percent") as (app, pilot, screen):
        unit = screen.unit
        assert [q.expected_answer for q in unit.questions] == ["42 percent"]
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#edit-content", TextArea).text = unit.content.replace(
            "42 percent", "90 percent"
        )
        await pilot.press("ctrl+s", "ctrl+s")  # errors shown, then kept
        await settle(pilot)
        await pilot.press("exclamation_mark")
        await settle(pilot)
        await pilot.press(*"newer survey", "enter")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
    stored = svc.library.unit(unit.id)
    assert stored is not None and stored.status == "confirmed"
    assert stored.content == "The survey found that 90 percent of adults never visit a public library."
    assert [(q.question, q.expected_answer) for q in stored.questions] == [
        ("The survey found that ____ of adults never visit a public library.", "90 percent")
    ]


async def test_evidence_unrelated_to_the_content_is_an_error_keep_anyway_cannot_keep(
    svc: Services, tmp_path: Path
) -> None:
    async with triage_at(svc, tmp_path, "42 percent") as (_, pilot, screen):
        unit = screen.unit
        await pilot.press("home", "v", "right_curly_bracket", "E")  # the photosynthesis paragraph
        await settle(pilot)
        stored = svc.library.unit(unit.id)
        assert stored.evidence[0].quote.startswith("Photosynthesis converts")
        assert not stored.acceptable
        assert any(i.code == "claim_unrelated" and i.severity == "error" for i in stored.issues)
        await pilot.press("exclamation_mark", "a")  # nothing to keep with a reason; refused
        await settle(pilot)
        assert svc.library.unit(unit.id).status == "proposed"  # type: ignore[union-attr]
