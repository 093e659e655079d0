"""The TUI talks to services only: no tui module imports peewee or core.storage."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"
THEMES = Path(__file__).resolve().parents[2] / "themes"
FORBIDDEN = ("peewee", "core.storage")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_tui_never_imports_storage_or_peewee() -> None:
    files = [*TUI.rglob("*.py"), *THEMES.rglob("*.py")]
    assert len(files) > 15
    offenders = {
        f"{path.relative_to(TUI.parent)}: {name}"
        for path in files
        for name in imported_modules(path)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)
    }
    assert not offenders, sorted(offenders)


def test_no_plain_markup_calls_on_untrusted_paths() -> None:
    """Every notify goes through tui.safe.notify (markup off), never app.notify(str) directly."""
    for path in TUI.rglob("*.py"):
        if path.name == "safe.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert ".notify(" not in text.replace("notify(self.app", "").replace("notify(app", ""), path


def test_screens_compose_rather_than_inherit_mixins() -> None:
    """Issue 31: every screen's one base is BaseScreen. What screens share is a widget they
    compose or a helper they hold, never a base class (ArticleScreen was ArticleUnitPages →
    ArticleIdeas → MakesCards → BaseScreen, each needing attributes the others set): the
    Article's lists are widgets (widgets/unit_pages.py); a selection's cards are an OwnCards
    (Article, Triage, Review: `self.cards`), the reschedule offer a RescheduleOffer (Schedule,
    Settings: `self.reschedule`), Browse's keys a BrowseActions (`self.actions`), each in place
    of a base whose hooks and flags the screen had to fill in. A base after BaseScreen counts
    too (`class S(BaseScreen, Mixin)` leaves BaseScreen first in the MRO)."""
    import importlib
    import pkgutil

    from textual.screen import Screen

    import tui.screens
    from tui.screens.base import BaseScreen

    for info in pkgutil.walk_packages(tui.screens.__path__, "tui.screens."):
        importlib.import_module(info.name)

    def subclasses(cls: type) -> list[type]:
        return [cls, *(s for sub in cls.__subclasses__() for s in subclasses(sub))]

    screens = {
        c for c in subclasses(Screen) if c.__module__.startswith("tui.screens.") and c is not BaseScreen
    }
    assert len(screens) >= 12
    mixed = {
        c.__qualname__: [b.__name__ for b in c.__bases__] for c in screens if c.__bases__ != (BaseScreen,)
    }
    assert not mixed, mixed
