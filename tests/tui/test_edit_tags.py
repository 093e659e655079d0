"""Issue 30: tags are typed in the edit form the way Anki keeps them. The form shows a unit's
tags one word each ("Calvin_cycle"), and what is typed splits on spaces and commas: "例子
examples" is two tags, "Calvin_cycle" one, "Calvin cycle" back in the library."""

from __future__ import annotations

from pathlib import Path

from conftest import imported, opened, running, settle
from textual.widgets import Input

from core.services.bootstrap import Services
from core.text.tags import tag_line

ARTICLE = """# Light and life

Photosynthesis converts light energy into chemical energy in the chloroplasts of green plants. The Calvin cycle then fixes carbon dioxide into sugars.

The Calvin cycle runs in the stroma of the chloroplasts, and photosynthesis stops without it.
"""


async def test_tags_typed_with_spaces_and_commas_become_one_tag_each(svc: Services, tmp_path: Path) -> None:
    from tui.modals.edit_unit import EditUnitModal
    from tui.screens.triage import TriageScreen

    imported(svc, tmp_path / "light.md", ARTICLE)
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        assert screen.unit is not None
        unit = screen.unit
        form = await opened(pilot, "e", EditUnitModal)
        field = form.query_one("#edit-tags", Input)
        assert field.value == tag_line(unit.tags)  # one word a tag, as Anki has them
        field.value = "例子 examples, Calvin_cycle，photosynthesis Photosynthesis"
        for _ in range(2):  # a first ctrl+s may only list the warnings
            if isinstance(app.screen, EditUnitModal):
                await pilot.press("ctrl+s")
                await settle(pilot)
        assert not isinstance(app.screen, EditUnitModal)
        assert svc.library.unit(unit.id).tags == ("例子", "examples", "Calvin cycle", "photosynthesis")
