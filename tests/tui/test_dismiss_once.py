"""A modal is dismissed once, whatever arrives after (issue 34, item 8): the palette's backdrop
double-clicked, Enter held down over a picker, Browse's deck move with three Enters.

The events are posted at once, as a terminal delivers a double click or a held key: they are all
queued before the first dismiss is seen. Before the guard (tui/modals/once.py) the second dismiss
popped the screen beneath too (Home, then ScreenStackError: exit 1) and a move ran twice."""

from __future__ import annotations

import asyncio

from conftest import opened, running, settle
from test_review_support import add_units, q
from textual import events
from textual.command import CommandList, CommandPalette

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tui.modals.pick import PickModal
from tui.modals.search import SearchModal
from tui.screens.browse import BrowseScreen
from tui.screens.home import HomeScreen


def _mouse(kind: type[events.MouseEvent]) -> events.MouseEvent:
    """A mouse event as the driver posts it to the app, at the palette's backdrop (top left)."""
    return kind(None, 0, 1, 0, 0, 1, False, False, False, screen_x=0, screen_y=1)


def _enter() -> events.Key:
    return events.Key("enter", "\r")


async def _burst(pilot: object, *posted: object) -> None:
    """Post the events to the app at once, then let them run out. Pilot's own wait could hang on
    a screen removed meanwhile, so a plain sleep first."""
    app = pilot.app  # type: ignore[attr-defined]
    for event in posted:
        app.post_message(event)
    await asyncio.sleep(0.6)
    await settle(pilot)


async def test_a_double_click_on_the_palettes_backdrop_closes_the_palette_only(svc: Services) -> None:
    async with running(svc) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        for _ in range(3):  # the attack did it again: the second round ended the app
            await opened(pilot, "ctrl+p", CommandPalette)
            await _burst(
                pilot, *[_mouse(kind) for _ in range(2) for kind in (events.MouseDown, events.MouseUp)]
            )
            assert app.is_running and app.screen is home, app.screen_stack
    assert app.return_code in (None, 0)


async def test_enter_held_over_the_tag_picker_picks_once_and_the_search_stays(samples: Services) -> None:
    for article in samples.library.articles():
        samples.curation.accept_all_valid(article.id)  # units with tags: the picker lists them
    async with running(samples) as (app, pilot):
        search = await opened(pilot, "slash", SearchModal)
        await pilot.press("ctrl+f", "t")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PickModal)
        await _burst(pilot, *[_enter() for _ in range(4)])
        assert app.is_running and app.screen is search, app.screen_stack


async def test_three_enters_on_browses_deck_picker_move_once(svc: Services, tui_clock: FixedClock) -> None:
    now = int(tui_clock.now().timestamp())
    add_units(2, 1, now=now)
    add_units(1, 1, now=now)
    async with running(svc) as (app, pilot):
        browse = await opened(pilot, "b", BrowseScreen)
        await opened(pilot, "m", PickModal)
        await pilot.press("down")  # a deck, not "back to its own"
        await _burst(pilot, *[_enter() for _ in range(3)])
        assert app.is_running and app.screen is browse, app.screen_stack
        notices = [str(n.message) for n in app._notifications]
        assert all(n.strip() for n in notices), notices  # no empty error notice
    assert q("SELECT COUNT(*) FROM bulk_journal WHERE action IN ('move_deck', 'source_deck')")[0][0] <= 1


def test_every_modal_of_ours_has_the_guard() -> None:
    """A modal added later cannot forget the guard: every ModalScreen class under tui/ is a Modal."""
    import importlib
    import inspect
    import pkgutil

    from textual.screen import ModalScreen

    import tui
    from tui.modals.once import Modal, Palette

    unguarded = []
    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        if info.name.startswith("tui.cli"):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == info.name
                and issubclass(cls, ModalScreen)
                and not issubclass(cls, (Modal, Palette))
            ):
                unguarded.append(f"{info.name}.{cls.__name__}")
    assert not unguarded, unguarded


async def test_keys_at_once_in_the_edit_form_never_end_the_app(samples: Services) -> None:
    """Re-attack (issue 34 item 8): in Triage's edit form, ctrl+n then at once ctrl+r or ctrl+s
    reached a question row whose fields were not mounted yet (NoMatches '.edit-question', exit
    1, 3 of 3). The form stays through each burst, and ctrl+s right after ctrl+n saves and closes it."""
    from tui.modals.edit_unit import EditUnitModal
    from tui.screens.triage import TriageScreen

    async with running(samples) as (app, pilot):
        await opened(pilot, "t", TriageScreen)
        for burst in (("ctrl+n", "ctrl+r"), ("ctrl+n", "ctrl+n", "ctrl+r", "ctrl+r", "ctrl+n")):
            form = await opened(pilot, "e", EditUnitModal)
            before = len(form.rows())
            await _burst(pilot, *[events.Key(k, None) for k in burst])
            assert app.is_running and app.screen is form
            assert len(form.rows()) == before + burst.count("ctrl+n") - burst.count("ctrl+r")
            await pilot.press("escape")
            await settle(pilot)
        form = await opened(pilot, "e", EditUnitModal)
        await _burst(pilot, events.Key("ctrl+n", None), events.Key("ctrl+s", None))
        assert app.is_running and not isinstance(app.screen, EditUnitModal)  # saved and closed
    assert app.return_code in (None, 0)


async def test_paging_the_palette_while_its_list_changes_never_ends_the_app(svc: Services) -> None:
    """Re-attack fuzz: in the command palette, page down, a letter and page up at once raised
    KeyError: 0 inside Textual's OptionList (its line map empty until the new options are laid
    out) and ended the app, 2 of 3 times. Each burst leaves the palette open and the app up."""
    async with running(svc) as (app, pilot):
        palette = await opened(pilot, "ctrl+p", CommandPalette)
        commands = palette.query_one(CommandList)
        for key in ("pageup", "pagedown"):
            # what a letter's search does: new options in the list while it is still hidden (no
            # region yet, so no line map), one highlighted, the key handled before it is shown
            commands.set_class(False, "--visible")
            await settle(pilot)
            commands.clear_options()
            commands.add_options([f"command {i}" for i in range(40)])
            commands.highlighted = 3
            await _burst(pilot, events.Key(key, None), events.Key("a", "a"), events.Key(key, None))
            assert app.is_running and app.screen is palette, app.screen_stack
    assert app.return_code in (None, 0)
