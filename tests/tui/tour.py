"""A walk through every screen and modal of the app by keys, over a library full of payloads.

`hostile(svc, folder)` fills a library with markup and escape payloads in every field a screen
shows (title, text, units, tags, questions, answers, model name) and names files in `folder`
(where the Import tree starts) after the fault suite's HOSTILE_NAMES. `tour(app, pilot, stop)`
then opens each screen and modal, calling `await stop(name)` with it on screen. Used by the
widget audit (which classes are mounted) and the hostile-text scan (what is drawn).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from conftest import HOSTILE_BODY, settle, until
from faults.helpers import ESCAPES, HOSTILE_NAMES, MARKUP
from textual.command import CommandPalette
from textual.widgets import DirectoryTree, OptionList, Select, TextArea

from core.host import paths
from core.services.bootstrap import Services

PAYLOAD = f"{MARKUP} {ESCAPES} \u202eevil"
Stop = Callable[[str], Awaitable[None]]


def hostile(svc: Services, folder: Path) -> None:
    for name in HOSTILE_NAMES:
        (folder / name).write_text("# Named\n\nA short article about memory.\n", encoding="utf-8")
    article = folder / "articles" / "evil.md"
    article.parent.mkdir(parents=True, exist_ok=True)
    article.write_text(HOSTILE_BODY, encoding="utf-8")
    (outcome,) = svc.library.import_paths([article], extractor="offline")
    assert outcome.status == "imported", outcome
    con = sqlite3.connect(str(paths.database_path()))
    try:
        con.execute("UPDATE unit SET content = content || ?, model = ?", (PAYLOAD, f"m{ESCAPES}"))
        con.execute("UPDATE unit SET tags_json = ?", (json.dumps([PAYLOAD]),))
        con.execute("UPDATE question SET question = ?, answer = ?", (f"Q {PAYLOAD}", f"A {PAYLOAD}"))
        con.execute("UPDATE article SET title = title || ?", (PAYLOAD,))
        con.commit()
    finally:
        con.close()


async def _keys(pilot: Any, *keys: str, rounds: int = 3) -> None:
    await pilot.press(*keys)
    await settle(pilot, rounds)


async def _tree_loaded(pilot: Any) -> None:
    tree = pilot.app.screen.query_one(DirectoryTree)
    await until(
        pilot, lambda: len(tree.root.children) >= len(HOSTILE_NAMES)
    )  # the Import tree lists the folder


async def tour(app: Any, pilot: Any, stop: Stop) -> list[str]:
    """Every screen and modal, by keys from Home; returns the stops' names in order."""
    seen: list[str] = []

    async def at(name: str) -> None:
        seen.append(name)
        await stop(name)

    await at("home")
    await _keys(pilot, "i")
    await _tree_loaded(pilot)
    await at("import")
    await _keys(pilot, "tab", "down", "down", "down", "enter")  # articles/, home/, a-title...
    await at("import: a name picked")
    await _keys(pilot, "escape", "l")
    await at("library")
    await _keys(pilot, "x")
    await at("export")
    await _keys(pilot, "escape", "enter")
    await at("article")
    await _keys(pilot, "t")
    await at("triage")
    await _keys(pilot, "e")
    await at("edit unit")
    await _keys(pilot, "escape")
    for _ in range(3):  # the unit whose words an edit makes contradict its quote
        if "schedules" in app.screen.unit.content:
            break
        await _keys(pilot, "s")
    await _keys(pilot, "e")
    area = app.screen.query_one("#edit-content", TextArea)
    area.text = area.text.replace(" schedules ", " never schedules ")
    await _keys(pilot, "ctrl+s", "ctrl+s", "exclamation_mark")
    await at("keep anyway")
    await _keys(pilot, *f"a reason {MARKUP}", "enter")  # kept: acceptable
    await _keys(pilot, "a")  # accept: its questions become cards
    await at("triage: accepted")
    await _keys(pilot, "escape", "escape", "escape", "r")
    await at("review")
    await _keys(pilot, "space")
    await at("review: revealed")
    await _keys(pilot, "i")
    await at("card info")
    await _keys(pilot, "escape", "escape", "b", rounds=5)
    await at("browse")
    await _keys(pilot, "A")
    await at("browse: delete an article?")
    await _keys(pilot, "escape", "t")
    await at("browse: a tag to add")
    await _keys(pilot, "escape", "d", rounds=5)  # a unit to the trash
    await _keys(pilot, "w")
    await at("trash")
    await _keys(pilot, "escape", "escape", "w", rounds=5)
    await at("schedule")
    await _keys(pilot, "escape", "s", rounds=5)
    await at("stats")
    await _keys(pilot, "escape", "comma")
    await at("settings")
    select = app.screen.query_one("#set-theme", Select)
    select.focus()
    await _keys(pilot, "enter")
    await at("settings: theme list open")
    await _keys(pilot, "escape", "escape", "escape", "question_mark")
    await at("help")
    await _keys(pilot, "escape", "slash", "c", "l", "i", "c", "k", rounds=5)
    await at("search")
    await _keys(pilot, "ctrl+f", "t", rounds=5)
    assert type(app.screen).__name__ == "PickModal", app.screen
    await at("search: tag list")
    await _keys(pilot, "escape", "escape", "ctrl+p")
    await _keys(pilot, *"Evil", rounds=5)
    assert isinstance(app.screen, CommandPalette)
    await until(pilot, lambda: app.screen.query_one(OptionList).option_count)  # its search has listed
    await at("command palette")
    await _keys(pilot, "escape")
    from tui.safe import notify

    notify(app, f"notice {PAYLOAD}")
    await settle(pilot)
    await at("a notice")
    return seen
