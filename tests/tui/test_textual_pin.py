"""The private Textual API tui/ relies on, pinned: pyproject allows one Textual minor version
only, and this test fails when that version's private names or signatures are not the ones
RowTable, SteadyOptionList and MemoryRushApp._start_theme were written against (a new Textual
must be read before the pin moves). A second test fails when tui/ starts to use a private
Textual name that is not listed here.

Why private at all: RowTable re-keys DataTable's render caches (a cursor move redraws two rows,
not thirty), SteadyOptionList keeps OptionList's caches through a Resize that changes nothing,
and _start_theme applies the saved theme before the first stylesheet parse (start-up time);
bench/bench_tui.py measures each. tui/widgets/line_memo.py keeps Textual's styled lines of a
table that scrolls, and draws RowTable's scrollbar from kept lines (a scrolling cursor move in
Browse: bench/bench_browse.py). MemoryRushApp.on_notify trims the notices on screen, and
tui/driver.py copies LinuxDriver's input thread (tests/tui/test_driver.py checks the copy).
"""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.metadata
import inspect
import re
import tomllib
import warnings
from pathlib import Path

from textual._styles_cache import StylesCache
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver
from textual.widget import Widget
from textual.widgets import DataTable, DirectoryTree, OptionList

ROOT = Path(__file__).resolve().parents[2]
TUI = ROOT / "tui"
# What a stock widget needs to be made at all, to be asked which private names it has.
PROBE_ARGS: dict[type, tuple[object, ...]] = {DirectoryTree: (str(ROOT),)}

# (class, method): its signature as of the pinned version.
METHODS = {
    (DataTable, "_update_dimensions"): "(self, new_rows: 'Iterable[RowKey]') -> 'None'",
    (DataTable, "_render_line"): "(self, y: 'int', x1: 'int', x2: 'int', base_style: 'Style') -> 'Strip'",
    (DataTable, "_render_cell"): (
        "(self, row_index: 'int', column_index: 'int', base_style: 'Style', width: 'int', "
        "cursor: 'bool' = False, hover: 'bool' = False) -> 'SegmentLines'"
    ),
    (DataTable, "_render_line_in_row"): (
        "(self, row_key: 'RowKey', line_no: 'int', base_style: 'Style', cursor_location: 'Coordinate', "
        "hover_location: 'Coordinate') -> 'tuple[SegmentLines, SegmentLines]'"
    ),
    (DataTable, "_get_offsets"): "(self, y: 'int') -> 'tuple[RowKey, int]'",
    (DataTable, "_get_row_style"): "(self, row_index: 'int', base_style: 'Style') -> 'Style'",
    (DataTable, "_get_row_renderables"): "(self, row_index: 'int') -> 'RowRenderables'",
    (DataTable, "_get_styles_to_render_cell"): (
        "(self, is_header_cell: 'bool', is_row_label_cell: 'bool', is_fixed_style_cell: 'bool', "
        "hover: 'bool', cursor: 'bool', show_cursor: 'bool', show_hover_cursor: 'bool', "
        "has_css_foreground_priority: 'bool', has_css_background_priority: 'bool') -> 'tuple[Style, Style]'"
    ),
    (DataTable, "_on_resize"): "(self, _: 'events.Resize') -> 'None'",  # what RowTable.on_resize prevents
    (OptionList, "_clear_caches"): "(self) -> 'None'",
    (OptionList, "_on_resize"): "(self)",  # what SteadyOptionList.on_resize prevents
    (LinuxDriver, "_sigcont_application"): "(self, *_) -> 'None'",  # GuardedDriver: only in the foreground
    (App, "_refresh_truecolor_filter"): "(self, theme: 'TerminalTheme') -> 'None'",
    (App, "_unnotify"): "(self, notification: 'Notification', refresh: 'bool' = True) -> 'None'",
    (App, "_start_widget"): "(self, parent: 'Widget', widget: 'Widget') -> 'None'",  # RowTable's scrollbar
    (StylesCache, "render_line"): (  # tui/widgets/line_memo.py styles a line through it
        "(self, styles: 'StylesBase', y: 'int', size: 'Size', content_size: 'Size', padding: 'Spacing', "
        "base_background: 'Color', background: 'Color', render_content_line: 'Callable[[int], Strip]', "
        "border_title: 'tuple[Content, Color, Color, Style] | None', "
        "border_subtitle: 'tuple[Content, Color, Color, Style] | None', opacity: 'float', "
        "ansi_theme: 'TerminalTheme', native_ansi: 'bool') -> 'Strip'"
    ),
    # line_memo._Sides pads a content line in the background Textual's render_line pads it with
    (
        StylesCache,
        "get_inner_outer",
    ): "(cls, base_background: 'Color', background: 'Color') -> 'tuple[Style, Style]'",
}
# Instance attributes read or written.
ATTRIBUTES = {
    DataTable: (
        "_cell_render_cache", "_row_render_cache", "_line_cache", "_require_update_dimensions", "_new_rows",
        "_row_locations", "_column_locations", "_header_row_key", "_show_hover_cursor", "_update_count",
        "_pseudo_class_state", "_data", "_labelled_row_exists",
    ),
    App: ("_notifications",),  # MemoryRushApp.on_notify replaces a repeated notice, keeps three
    # RowTable's scrollbar; line_memo's styling; ParagraphWindow.show_subtitle (one border line)
    Widget: ("_vertical_scrollbar", "_styles_cache", "_border_subtitle"),
}  # fmt: skip
# Private modules' names imported.
IMPORTS = {
    "textual._loop": ("loop_last",),  # tui/driver.py: LinuxDriver's input thread, copied (test_driver.py)
    "textual._parser": ("ParseError",),
    "textual._xterm_parser": ("XTermParser",),
    "textual._segment_tools": ("line_crop",),
    "textual._types": ("SegmentLines",),
}
PRIVATE_NAMES = {name for _, name in METHODS} | {n for names in ATTRIBUTES.values() for n in names}


def pinned_minor() -> str:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    [spec] = [d for d in deps if re.match(r"textual\s*[<>=]", d)]
    lower = re.search(r">=\s*(\d+)\.(\d+)", spec)
    upper = re.search(r"<\s*(\d+)\.(\d+)", spec)
    assert lower and upper, spec
    major, minor = int(lower.group(1)), int(lower.group(2))
    assert (int(upper.group(1)), int(upper.group(2))) == (major, minor + 1), f"not one minor version: {spec}"
    return f"{major}.{minor}"


def test_textual_is_the_pinned_minor_version() -> None:
    installed = importlib.metadata.version("textual")
    assert installed.startswith(pinned_minor() + "."), (installed, pinned_minor())


def test_the_private_api_is_the_one_written_against() -> None:
    changed = {
        f"{cls.__name__}.{name}": str(inspect.signature(getattr(cls, name, None) or (lambda: None)))
        for (cls, name), signature in METHODS.items()
        if not hasattr(cls, name) or str(inspect.signature(getattr(cls, name))) != signature
    }
    assert changed == {}
    for cls, names in ATTRIBUTES.items():
        instance = cls()
        assert [n for n in names if not hasattr(instance, n)] == [], cls
    for module, names in IMPORTS.items():
        found = importlib.import_module(module)
        assert [n for n in names if not hasattr(found, n)] == [], module


def _textual_bases(node: ast.ClassDef, scope: dict[str, type]) -> list[type]:
    bases = []
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        cls = scope.get(getattr(target, "id", ""))
        if isinstance(cls, type) and cls.__module__.startswith("textual"):
            bases.append(cls)
    return bases


def _probe(base: type) -> object:
    """An instance of a stock widget or app to ask for its private names (a class for others).
    DirectoryTree's constructor makes a watcher coroutine that only a mounted tree awaits: it is
    collected here with its "never awaited" warning ignored, not left to warn in a later test."""
    if not issubclass(base, Widget | App):
        return base
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        probe = base(*PROBE_ARGS.get(base, ()))
        gc.collect()
    return probe


def private_uses(path: Path) -> set[str]:
    """Private Textual names a tui/ module imports, overrides, calls or reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    used: set[str] = set()
    for node in ast.walk(tree):
        private_module = isinstance(node, ast.ImportFrom) and any(
            part.startswith("_") for part in (node.module or "").split(".")
        )
        if isinstance(node, ast.ImportFrom) and private_module and (node.module or "").startswith("textual"):
            used.update(f"{node.module}.{a.name}" for a in node.names)
        if not isinstance(node, ast.ClassDef):
            continue
        for base in _textual_bases(node, vars(module)):
            probe = _probe(base)
            for inner in ast.walk(node):
                name = ""
                if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name | ast.Call):
                    name = inner.attr
                elif isinstance(inner, ast.FunctionDef):
                    name = inner.name
                if name.startswith("_") and not name.startswith("__") and hasattr(probe, name):
                    used.add(name)
    return used


def test_every_private_name_tui_uses_is_pinned_here() -> None:
    allowed = PRIVATE_NAMES | {f"{m}.{n}" for m, names in IMPORTS.items() for n in names}
    unlisted = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted(TUI.rglob("*.py"))
        for name in private_uses(path)
        if name not in allowed
    }
    assert unlisted == set()
