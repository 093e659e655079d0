"""Textual's stock widgets that show text they are handed, with the gate built in.

A stock widget shows what it is given: DirectoryTree shows file names as the file system spells
them (a file named "x\\x1b]2;PWNED\\x07.md" retitled the terminal when the Import screen opened),
Input shows its value, Log drops only \\x00-\\x14 (not ESC). These subclasses put
`core.text.sanitize` at the one place each widget turns a string into something drawn, so no
caller can forget it. The app uses these, never the bare classes: tests/tui/test_widget_audit.py
walks every screen and fails on a widget class nobody has checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from rich.highlighter import Highlighter
from rich.text import Text, TextType
from textual.widgets import DirectoryTree, Input, Log

from core.text import sanitize


def _literal(label: TextType) -> Text:
    """A label as rich Text with unsafe characters made spaces (its styles kept: same length)."""
    text = label.copy() if isinstance(label, Text) else Text(str(label))
    text.plain = sanitize(text.plain, single_line=True)
    return text


class SafeDirectoryTree(DirectoryTree):
    """DirectoryTree whose labels (file and folder names) pass the gate."""

    def process_label(self, label: TextType) -> Text:
        return super().process_label(_literal(label))


class _ShownSafely(Highlighter):
    """What an Input draws of its value passes the gate. The value itself stays as typed or
    set (a path picked in the tree must still name the file): only the picture changes, one
    space per unsafe character, so the cursor stays on the character it is on."""

    def highlight(self, text: Text) -> None:
        clean = sanitize(text.plain, single_line=True)
        if clean != text.plain:
            text.plain = clean


class SafeInput(Input):
    """Input whose value is drawn through the gate (see _ShownSafely)."""

    def __init__(self, value: str | None = None, placeholder: str = "", **kwargs: object) -> None:
        kwargs.setdefault("highlighter", _ShownSafely())
        super().__init__(value, placeholder, **kwargs)  # type: ignore[arg-type]


class SafeLog(Log):
    """Log whose lines pass the gate (Textual's Log removes only \\x00-\\x14, not ESC)."""

    def write(self, data: str, scroll_end: bool | None = None) -> Self:
        return super().write(sanitize(data), scroll_end)

    def write_lines(self, lines: Iterable[str], scroll_end: bool | None = None) -> Self:
        return super().write_lines([sanitize(line) for line in lines], scroll_end)
