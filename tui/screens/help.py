"""Help: every key, by screen (read from the screens' BINDINGS, so it cannot drift)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui.bindings import APP_BINDINGS
from tui.keys import pretty_key
from tui.screens.base import BaseScreen
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar


def sections() -> list[tuple[str, list[Binding]]]:
    """(section, bindings) for the app and every screen and modal."""
    from tui.modals.card_info import CardInfoModal
    from tui.modals.edit_unit import EditUnitModal
    from tui.modals.export import ExportModal
    from tui.modals.pick import PickModal
    from tui.modals.prompt import Ask, Confirm
    from tui.modals.reason import ReasonModal
    from tui.modals.search import SearchModal
    from tui.screens.article import ArticleScreen
    from tui.screens.browse import BrowseScreen
    from tui.screens.home import HomeScreen
    from tui.screens.import_screen import ImportScreen
    from tui.screens.library import LibraryScreen
    from tui.screens.review import ReviewScreen
    from tui.screens.schedule import ScheduleScreen
    from tui.screens.settings import SettingsScreen
    from tui.screens.stats import StatsScreen
    from tui.screens.trash import TrashScreen
    from tui.screens.triage import TriageScreen
    from tui.widgets.import_tree import ImportTree
    from tui.widgets.paragraph_view import ParagraphView
    from tui.widgets.search_filters import FilterBar

    sections: list[tuple[str, list[object]]] = [
        (
            "Everywhere",
            [
                *APP_BINDINGS,
                Binding("ctrl+p", "command_palette", "Command palette", id="app.palette"),
                *BaseScreen.BINDINGS,
            ],
        ),
        ("Home", list(HomeScreen.BINDINGS)),
        ("Import", [*ImportScreen.BINDINGS, *ImportTree.BINDINGS]),
        ("Library", list(LibraryScreen.BINDINGS)),
        ("Article", [*ArticleScreen.BINDINGS, *ParagraphView.BINDINGS]),
        ("Triage", list(TriageScreen.BINDINGS)),
        ("Edit unit", list(EditUnitModal.BINDINGS)),
        ("Keep anyway (a reason)", list(ReasonModal.BINDINGS)),
        ("Export", list(ExportModal.BINDINGS)),
        ("Review", list(ReviewScreen.BINDINGS)),
        ("Browse", list(BrowseScreen.BINDINGS)),
        ("Card info", list(CardInfoModal.BINDINGS)),
        ("Trash", list(TrashScreen.BINDINGS)),
        ("Schedule", list(ScheduleScreen.BINDINGS)),
        ("Questions", [*Confirm.BINDINGS, *Ask.BINDINGS]),
        ("Stats", list(StatsScreen.BINDINGS)),
        ("Settings", list(SettingsScreen.BINDINGS)),
        ("Search", list(SearchModal.BINDINGS)),
        ("Search filters", list(FilterBar.BINDINGS)),
        ("Choose from a list", list(PickModal.BINDINGS)),
        ("Help", list(HelpScreen.BINDINGS)),
    ]
    return [(name, [b for b in bindings if isinstance(b, Binding)]) for name, bindings in sections]


def key_map() -> list[tuple[str, list[tuple[str, str]]]]:
    """(section, [(keys, description)]) for the app and every screen and modal; `keys` as the
    binding has them (every key of it, "escape,q"): pretty_key shows them."""
    return [(name, [(b.key, b.description) for b in bindings]) for name, bindings in sections()]


class HelpScreen(BaseScreen):
    """Every key by screen."""

    HELP_NAME = "Help"
    BINDINGS = [Binding("escape,q", "close", "Close", id="help.close")]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        parts: list[Content] = []
        sections = [(section, [(pretty_key(k), d) for k, d in rows]) for section, rows in key_map()]
        width = max(len(keys) for _, rows in sections for keys, _ in rows)
        for section, rows in sections:
            parts.append(Content.styled(section, "bold $accent"))
            # a space after the widest keys too: "!" never runs into "Keep anyway"
            parts.extend(Content.assemble((f"  {keys:<{width}} ", "bold"), d) for keys, d in rows)
            parts.append(Content(""))
        with VerticalScroll(id="help-body"):
            yield Static(Content("\n").join(parts), id="help-text")
        yield KeyBar()

    def action_close(self) -> None:
        self.app.pop_screen()
