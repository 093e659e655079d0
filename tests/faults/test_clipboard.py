"""ctrl+c with nothing to copy writes nothing to the clipboard (issue 34, item 13.4).

The real `memoryrush` in tmux, every byte it writes to the terminal recorded. Text selected with
the mouse on a notice (which a click on it closes) is a selection of nothing once the notice is
gone: ctrl+c sent an empty OSC 52
(`ESC ] 52 ; c ; BEL`), which a terminal takes as "clear the clipboard", so whatever the reader
had copied elsewhere was gone. Now a copy of nothing writes no OSC 52 and says "Nothing
selected to copy"; a copy of something still reaches the clipboard.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path

from .helpers import cli_argv, mr_env
from .tmux import Tmux

NOTICE = "Do you want to quit?"  # Textual's notice for a ctrl+c with no selection at all
KEPT = "copied-elsewhere-keep-me"


def _mouse(tmux: Tmux, target: str, code: str) -> None:
    tmux.keys(target, "-H", *(f"{b:02x}" for b in f"\x1b[<{code}".encode()))
    time.sleep(0.05)


def _select(tmux: Tmux, target: str, text: str) -> None:
    """Drag the mouse across `text` on the screen (SGR mouse reports: press, move, release)."""
    screen = tmux.screen(target).splitlines()
    row = next(n for n, line in enumerate(screen) if text in line)
    col = screen[row].index(text)
    _mouse(tmux, target, f"0;{col + 1};{row + 1}M")
    _mouse(tmux, target, f"32;{col + len(text)};{row + 1}M")
    _mouse(tmux, target, f"0;{col + len(text)};{row + 1}m")
    time.sleep(0.2)


def _wait_gone(tmux: Tmux, target: str, text: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while text in tmux.screen(target):
        assert time.monotonic() < deadline, f"{text!r} stayed on screen"
        time.sleep(0.2)


def _osc52(raw: Path) -> list[bytes]:
    data = raw.read_bytes()
    return [part.split(b"\x07", 1)[0] for part in data.split(b"\x1b]52;c;")[1:]]


def test_ctrl_c_with_nothing_selected_leaves_the_clipboard_alone(
    home: Path, tmux: Tmux, tmp_path: Path
) -> None:
    raw = tmp_path / "terminal.bin"
    target = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home), 120, 40, record=raw)
    tmux.wait_for(target, Tmux.HOME)
    tmux.wait_for(target, "The week ahead")
    _select(tmux, target, "The week ahead")
    tmux.keys(target, "C-c")  # something selected: copied
    deadline = time.monotonic() + 10
    while not _osc52(raw) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [base64.b64decode(b).decode() for b in _osc52(raw)] == ["The week ahead"]

    tmux.tmux("set-buffer", KEPT)  # what the reader copied in another program since
    _mouse(tmux, target, "0;2;3M")  # a click elsewhere clears the selection
    _mouse(tmux, target, "0;2;3m")
    tmux.keys(target, "C-c")  # nothing selected: Textual's notice, nothing copied
    tmux.wait_for(target, NOTICE)
    _select(tmux, target, NOTICE)  # the click on the notice closes it
    _wait_gone(tmux, target, NOTICE)
    tmux.keys(target, "C-c")  # a selection of nothing
    tmux.wait_for(target, "Nothing selected to copy")

    time.sleep(0.3)
    assert len(_osc52(raw)) == 1, _osc52(raw)  # no second write, and no empty one
    assert tmux.tmux("show-buffer") == KEPT
    tmux.quit_app(target)
    assert tmux.exit_status(target) == 0
