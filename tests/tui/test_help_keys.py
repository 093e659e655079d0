"""Help shows keys as a reader types them (issue 32: it showed `full_stop`, `right_parenthesis`
and `exclamation_markKeep anyway`, and no `enter` for Keep anyway's reason)."""

from __future__ import annotations

import re

from conftest import opened, running
from textual.widgets import Static

from core.services.bootstrap import Services
from tui.keys import pretty_key
from tui.screens.help import HelpScreen, key_map


def test_keys_read_as_typed() -> None:
    assert pretty_key("full_stop") == "."
    assert pretty_key("right_parenthesis") == ")"
    assert pretty_key("exclamation_mark") == "!"
    assert pretty_key("left_curly_bracket") == "{"
    assert pretty_key("question_mark") == "?"
    assert pretty_key("escape,q") == "escape or q"
    assert pretty_key("n,escape") == "n or escape"
    assert pretty_key("ctrl+s") == "ctrl+s"


async def test_help_shows_every_key_as_typed_with_its_description(svc: Services) -> None:
    async with running(svc) as (app, pilot):
        await opened(pilot, "question_mark", HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).render())
    lines = text.splitlines()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), [line for line in lines if "_" in line]
    for keys, what in (("!", "Keep anyway"), (".", "Show hidden"), (")", "+sentence"), ("?", "Help")):
        assert any(line.split() == [keys, *what.split()] for line in lines), (keys, what)
    section = dict(key_map())["Keep anyway (a reason)"]
    assert [k for k, _ in section] == ["enter", "escape"]  # every key that works there
    for section_keys in dict(key_map()).values():
        for keys, what in section_keys:
            assert any(line.startswith(f"  {pretty_key(keys)} ") and line.endswith(what) for line in lines)
