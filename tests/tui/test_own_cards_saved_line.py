"""Issue 16, after `c` on the Article screen: the "✓ Cloze saved" line above the units goes at
the reader's next key or after a few seconds, drawn again in place (no layout); on an article
whose unit list has pages still to load, `g` lists the new unit at the list's end, highlighted
and shown, without reading the pages in between (the save's own frame lists nothing: a longer
list lays the screen out). Before, the line stayed until the units were read again, and the new
unit was nowhere in the list until every page before it had been scrolled through."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import running, settle, until
from test_own_cards_save_keys import _frames, _import, _yours
from textual.widgets import OptionList, Static

from core.domain import SelectedSpan
from core.services.bootstrap import Services


def _line(app: object) -> str:
    return str(app.screen.query_one("#article-filter", Static).render())  # type: ignore[attr-defined]


async def _on_article(pilot: object) -> None:
    """From Home to the library's one article (l, enter), settled."""
    await settle(pilot)
    await pilot.press("l", "enter")  # type: ignore[attr-defined]
    await settle(pilot)


async def _saved(pilot: object) -> None:
    """A cloze of "42 percent": selected, the article's topic terms read (settled), then `c`,
    which saves on the spot (no settle after it: the line is read within ms of the save)."""
    await pilot.press("home", "right", "v", "shift+right")  # type: ignore[attr-defined]
    await settle(pilot)
    await pilot.press("c")  # type: ignore[attr-defined]


async def test_the_saved_line_goes_after_a_few_seconds_or_at_the_next_key_without_a_layout(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.screens.article as article

    monkeypatch.setattr(article, "SAID_SECONDS", 1.0)
    _import(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _on_article(pilot)
        await _saved(pilot)
        assert _line(app).startswith("✓ Cloze saved as yours"), _line(app)
        await until(pilot, lambda: _line(app).startswith("Units 3  status: all  type: all"), seconds=10)
        monkeypatch.setattr(article, "SAID_SECONDS", 60.0)  # now the key ends it, not the time
        await _saved(pilot)
        await settle(pilot)  # the save's own frames (listing it) before the key's
        # the same cloze again: saved, and the line says whose repeat it is (issue 34)
        assert _line(app).startswith("✓ Cloze (repeats unit "), _line(app)
        with _frames() as calls:
            await pilot.press("right")  # the next word: the view changes, the line goes
            await settle(pilot)
        assert _line(app).startswith("Units 4  status: all  type: all"), _line(app)
        assert "layout" not in calls, calls


async def _many_units(svc: Services, tmp_path: Path) -> int:
    article_id = _import(svc, tmp_path)
    for _ in range(120):  # three pages beyond the list's first
        svc.authoring.cloze(article_id, [SelectedSpan("p_002", 0, 6, "Public")])
    return article_id


async def _down_the_list(pilot: object, options: OptionList, keys: int) -> None:
    """The list focused, from its top down `keys` options: the pages load as it goes."""
    options.focus()
    await pilot.press("home", *["down"] * keys)  # type: ignore[attr-defined]
    await settle(pilot)


def _listed_once(screen: object, options: OptionList, mine: int) -> None:
    ids = [u.id for u in screen.units]  # type: ignore[attr-defined]
    assert len(ids) == len(set(ids)) and ids[-1] == mine, ids[-5:]
    assert [o.id for o in options.options] == [str(i) for i in ids]
    assert len(ids) == 123  # every unit once: the offline ones, 120, and yours


async def test_g_lists_your_new_unit_without_the_pages_before_it(svc: Services, tmp_path: Path) -> None:
    article_id = await _many_units(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _on_article(pilot)
        screen = app.screen
        loaded = len(screen.units)  # type: ignore[attr-defined]
        await _saved(pilot)
        await settle(pilot)
        mine = max(_yours(svc, article_id))
        assert _line(app).startswith("✓ Cloze saved as yours (g lists it)"), _line(app)
        await pilot.press("g")
        await settle(pilot)
        options = screen.query_one("#article-units", OptionList)
        assert len(screen.units) == loaded + 1  # type: ignore[attr-defined]  # no page read
        assert screen.units[-1].id == mine and options.highlighted == loaded  # type: ignore[attr-defined]
        assert screen._shown_unit.id == mine  # type: ignore[attr-defined]
        assert options.scroll_y == options.max_scroll_y  # in view: the list's end (it shrank)
        await _down_the_list(pilot, options, loaded + 60)
        _listed_once(screen, options, mine)


async def test_g_after_the_pages_brought_your_unit_lists_nothing_twice(svc: Services, tmp_path: Path) -> None:
    article_id = await _many_units(svc, tmp_path)
    async with running(svc, notifications=True) as (app, pilot):
        await _on_article(pilot)
        screen = app.screen
        await _saved(pilot)
        await settle(pilot)
        mine = max(_yours(svc, article_id))
        options = screen.query_one("#article-units", OptionList)
        await _down_the_list(pilot, options, 130)  # every page: the last one brings yours
        await pilot.press("g")  # nothing left to list: said so, no second line for it
        await settle(pilot)
        _listed_once(screen, options, mine)
