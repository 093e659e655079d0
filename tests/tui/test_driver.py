"""tui/driver.py: the copy of Textual's input thread is still Textual's, and pastes are text."""

from __future__ import annotations

import hashlib
import inspect

import pytest
from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from tui.app import MemoryRushApp
from tui.driver import PASTE_END, PASTE_START, UPSTREAM_SHA256, GuardedDriver, PasteGuard


def test_the_copied_input_thread_matches_the_installed_textual() -> None:
    """GuardedDriver.run_input_thread is LinuxDriver's with two changes. If this fails, Textual
    changed it: copy the new method into tui/driver.py, keep the two "MemoryRush:" changes,
    update UPSTREAM_SHA256 (and the textual pin in pyproject)."""
    source = inspect.getsource(LinuxDriver.run_input_thread)
    assert hashlib.sha256(source.encode()).hexdigest()[:16] == UPSTREAM_SHA256


def test_the_app_uses_the_guarded_driver_on_this_platform() -> None:
    assert issubclass(GuardedDriver, LinuxDriver)
    assert MemoryRushApp.get_driver_class(object.__new__(MemoryRushApp)) is GuardedDriver


def parse(text: str) -> list[object]:
    parser = XTermParser()
    return [*parser.feed(text), *parser.feed("")]


@pytest.mark.parametrize(
    "pasted",
    ["hello\x1b\x11world", "hi\x1b\x1bq", "hi\x1bA", "a\x1b]2;PWNED\x07b\x9bc", "x\x1b[27u y"],
)
def test_a_guarded_paste_reaches_the_app_as_one_paste_and_no_key(pasted: str) -> None:
    stream = f"{PASTE_START}{pasted}{PASTE_END}"
    unguarded = parse(stream)
    assert any(isinstance(e, events.Key) for e in unguarded)  # the hole: keys pressed by a paste
    guarded = parse(PasteGuard()(stream))
    assert [type(e) for e in guarded] == [events.Paste]
    text = guarded[0].text  # type: ignore[attr-defined]
    assert not any(c in text for c in "\x1b\x11\x07\x9b")


def test_markers_cut_between_reads_are_still_seen() -> None:
    guard = PasteGuard()
    parts = ["ab\x1b[2", "00~he\x1b\x11llo\r\nx\x1b[20", "1~", "after"]
    assert "".join(guard(p) for p in parts) == "ab\x1b[200~hello\nx\x1b[201~after"
    assert not guard.pasting


def test_outside_a_paste_nothing_is_held_back() -> None:
    guard = PasteGuard()
    assert guard("\x1b") == "\x1b"  # the Escape key reaches the parser at once
    assert guard("[A") == "[A"
    assert guard("\x1b[201~\x1b\x11") == "\x1b[201~\x1b\x11"  # not in a paste: keys are keys
