"""The gate is structural: every widget class the app mounts has been checked for how it shows
untrusted text, and a new one fails here until someone checks it and says how.

The tour (tests/tui/tour.py) opens every screen and modal over a library full of payloads and
collects the class of every mounted node. Each must be in AUDITED with the way it is kept safe.
A bare stock widget that draws the strings it is given (DirectoryTree, Input, Log) is not
allowed: its guarded subclass in tui/widgets/guarded.py is. test_untrusted_text.py then checks
what each stop actually draws.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from conftest import SIZE, make_app, settle
from textual.screen import Screen
from tour import hostile, tour

import tui.modals
import tui.screens
from core.services.bootstrap import Services
from tui.screens.base import BaseScreen

OURS = "our widget: renders Content built through tui.safe (content/cell/highlight_quotes)"
CONTAINER = "a container: shows no text of its own"
CONTENT_ONLY = "given only Content (tui.safe.content or our own fixed labels), never a markup str"
AUDITED: dict[str, str] = {
    # our screens and widgets
    **{
        f"tui.screens.{m}": OURS
        for m in (
            "article.ArticleScreen",
            "help.HelpScreen",
            "home.HomeScreen",
            "import_screen.ImportScreen",
            "library.LibraryScreen",
            "review.ReviewScreen",
            "settings.SettingsScreen",
            "stats.StatsScreen",
            "triage.TriageScreen",
            "browse.screen.BrowseScreen",
            "trash.TrashScreen",
            "schedule.ScheduleScreen",
        )
    },
    "tui.modals.card_info.CardInfoModal": OURS,
    "tui.modals.card_info.CurvePlot": "plotext line of R by day: numbers and our own title, no library text",
    "tui.modals.prompt.Confirm": OURS,
    "tui.modals.prompt.Ask": "its question through tui.safe.content; the answer field is a SafeInput",
    "tui.modals.edit_unit.EditUnitModal": OURS,
    "tui.modals.edit_unit.QuestionRow": "a question's SafeInput fields and our label",
    "tui.modals.reason.ReasonModal": OURS,
    "tui.modals.search.SearchModal": OURS,
    "tui.modals.export.ExportModal": OURS,
    "tui.modals.pick.PickModal": OURS,
    "tui.widgets.search_filters.FilterBar": "tag and article title through tui.safe.content (no markup)",
    "tui.widgets.chart.BarChart": "plotext chart of counts and dates: no text from the library",
    "tui.widgets.chart.BarList": "labels, title and values pass sanitize in show(); drawn as Text",
    "tui.widgets.key_bar.KeyBar": "our bindings' keys and descriptions only",
    "tui.widgets.paragraph_view.ParagraphView": "paragraph text through sanitize + Content (no markup)",
    "tui.widgets.row_table.RowTable": "a DataTable whose cells are tui.safe.cell (rich Text, sanitised)",
    "tui.widgets.steady_option_list.SteadyOptionList": "an OptionList of Content options (unit_line)",
    "tui.widgets.unit_pages.UnitPages": "a SteadyOptionList of Content options (unit_line, say_none)",
    "tui.widgets.unit_pages.IdeaList": "a SteadyOptionList of Content options (idea_options)",
    "tui.widgets.unit_pages.UnitsLine": CONTENT_ONLY,
    "tui.widgets.title_bar.TitleBar": "draws app.format_title, which sanitises title and sub-title",
    "tui.widgets.guarded.SafeDirectoryTree": "file names pass sanitize in process_label",
    "tui.widgets.import_tree.ImportTree": "a SafeDirectoryTree: file names pass sanitize in process_label",
    "tui.widgets.guarded.SafeInput": "the value is drawn through sanitize (its highlighter)",
    "tui.widgets.guarded.SafeLog": "lines pass sanitize in write/write_lines",
    # Textual's, used as they are
    "textual.containers.Grid": CONTAINER,
    "textual.containers.Horizontal": CONTAINER,
    "textual.containers.Vertical": CONTAINER,
    "textual.containers.VerticalScroll": CONTAINER,
    "textual.widgets._static.Static": CONTENT_ONLY,
    "textual.widgets._label.Label": CONTENT_ONLY,
    "textual.widgets._digits.Digits": "Home's counts: numbers we format, never library text",
    "textual.widgets._option_list.OptionList": "Option(Content) only (search results: sanitised snippets)",
    "textual.widgets._data_table.DataTable": "cells are tui.safe.cell (Stats: extractor and model names)",
    "textual.widgets._select.Select": "options are (content(name), value): sanitised Content",
    "textual.widgets._select.SelectCurrent": "shows the selected option's Content",
    "textual.widgets._select.SelectOverlay": "an OptionList of the Select's Content options",
    "textual.widgets._select.NonSelectableStatic": "the Select's blank/prompt label: our text",
    "textual.widgets._text_area.TextArea": "filled with sanitize(text); typed keys are printable only, "
    "pastes pass PasteGuard (tui/driver.py)",
    "textual.widgets._progress_bar.ProgressBar": "numbers only",
    "textual.widgets._progress_bar.Bar": "numbers only",
    "textual.widgets._progress_bar.PercentageStatus": "numbers only",
    "textual.widgets._toast.ToastRack": CONTAINER,
    "textual.widgets._toast.ToastHolder": CONTAINER,
    "textual.widgets._toast.Toast": "notices come only through tui.safe.notify: sanitised, markup=False",
    "textual.command.CommandPalette": "a modal of the providers' hits",
    "tui.modals.once.Palette": "Textual's CommandPalette dismissed once (tui/modals/once.py): the same hits",
    "textual.command.CommandInput": "an Input of what the user types (printable keys, guarded pastes)",
    "textual.command.CommandList": "hits as Content: ArticleCommands sanitises titles; bindings are ours",
    "textual.command.SearchIcon": "a fixed icon",
    "textual.widgets._loading_indicator.LoadingIndicator": "no text",
}


def our_screen_classes() -> set[str]:
    names: set[str] = set()
    for package in (tui.screens, tui.modals):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)  # subpackages too (tui/screens/browse/)
            for _, cls in inspect.getmembers(module, inspect.isclass):
                base = cls is BaseScreen or bool(cls.__subclasses__())  # a base of screens, never shown
                if issubclass(cls, Screen) and cls.__module__ == module.__name__ and not base:
                    names.add(f"{cls.__module__}.{cls.__qualname__}")
    return names


async def test_every_mounted_widget_class_is_audited_and_every_screen_visited(
    svc: Services, tmp_path: Path
) -> None:
    hostile(svc, tmp_path)
    app = make_app(svc)
    mounted: dict[str, str] = {}

    async def stop(name: str) -> None:
        for node in app.screen.walk_children(with_self=True):
            cls = type(node)
            mounted.setdefault(f"{cls.__module__}.{cls.__qualname__}", name)

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await tour(app, pilot, stop)
    unchecked = {cls: where for cls, where in mounted.items() if cls not in AUDITED}
    assert not unchecked, (
        f"widget classes nobody has checked for untrusted text (class: first screen): {unchecked}; "
        "add each to AUDITED saying how it stays safe, or use a guarded subclass (tui/widgets/guarded.py)"
    )
    missed = our_screen_classes() - set(mounted)
    assert not missed, f"screens the tour never opened (add them to tests/tui/tour.py): {missed}"
