"""What the terminal sends in: bytes that are not UTF-8, pasted escape sequences, random input.

In tmux, a real terminal: `send-keys -H` writes raw bytes to the app's input. A stray byte
(`e9` from a Latin-1 terminal, a C1 `9b`) used to kill Textual's input thread, losing the edit
in progress, and the process exited 0. Now such bytes read as U+FFFD, pastes pass the gate, and
any crash exits non-zero. The fuzz test sends random bytes and escape sequences to every screen
for a bounded time (FUZZ_SECONDS in all); the app never exits and the edit survives.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest
from textual import events
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.widgets import TextArea

from .helpers import SAMPLES, SCRIPTS, cli_argv, import_one, mr_env, query
from .terminal_bytes import findings
from .tmux import Tmux

FUZZ_SECONDS = 36.0  # the whole fuzz, across every screen (CI keeps it under a minute)
MARKER = "KEEP-THIS-EDIT"


@pytest.fixture
def library(home: Path) -> Path:
    result = import_one(home, SAMPLES / "spaced-repetition.md")
    assert result.returncode == 0, result.stderr
    return home


def hex_keys(data: bytes) -> list[str]:
    return ["-H", *(f"{b:02x}" for b in data)]


def open_edit_dialog(tmux: Tmux, home: Path, **kwargs: object) -> str:
    target = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home), 120, 40, **kwargs)  # type: ignore[arg-type]
    tmux.wait_for(target, Tmux.HOME)
    tmux.keys(target, "t")
    tmux.wait_for(target, "Accept")
    tmux.keys(target, "e")
    tmux.wait_for(target, "Tags, separated by spaces or commas")
    time.sleep(0.3)
    return target


def save_edit(tmux: Tmux, target: str) -> None:
    """ctrl+s until the dialog is gone (a first ctrl+s may only list validation warnings)."""
    for _ in range(3):
        tmux.keys(target, "C-s")
        deadline = time.monotonic() + 1.0  # (it used to sleep the whole second every time)
        while time.monotonic() < deadline:
            if "Tags, separated by spaces or commas" not in tmux.screen(target):
                return
            time.sleep(0.05)
    raise AssertionError(f"the edit dialog did not close:\n{tmux.screen(target)}")


def edited_content(home: Path) -> list[str]:
    return [row[0] for row in query(home, "SELECT content FROM unit WHERE content LIKE ?", (f"%{MARKER}%",))]


def saved_edit(home: Path, seconds: float = 10.0) -> list[str]:
    """`edited_content` once the edit is stored: the dialog closes at ctrl+s, and the edit is
    saved by a worker just after (issue 31: no write on the UI thread)."""
    deadline = time.monotonic() + seconds
    while not (found := edited_content(home)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def test_stray_non_utf8_bytes_neither_kill_the_app_nor_lose_the_edit(library: Path, tmux: Tmux) -> None:
    target = open_edit_dialog(tmux, library)
    tmux.keys(target, "-l", f"{MARKER}-1 ")
    for stray in (b"\xe9A", b"\x9b", b"\xff\xfe", b"\xc0\x80", b"\xed\xa0\x80"):
        tmux.keys(target, *hex_keys(stray))
        time.sleep(0.2)
    tmux.keys(target, "-l", f" {MARKER}-2")
    tmux.wait_for(target, f"{MARKER}-2")
    assert not tmux.dead(target), tmux.screen(target)
    save_edit(tmux, target)
    tmux.quit_app(target)
    assert tmux.exit_status(target) == 0
    (content,) = edited_content(library)
    assert f"{MARKER}-1" in content and f"{MARKER}-2" in content
    assert "\ufffdA" in content  # the bad byte shows as U+FFFD; the A after it is kept


def test_a_paste_is_text_and_presses_no_key(library: Path, tmux: Tmux, tmp_path: Path) -> None:
    """Copied text with escapes in it: Textual's parser turned the part after an ESC into key
    presses (here ESC ESC = Escape, which closed the dialog, and ESC ctrl+q, which quit)."""
    raw = tmp_path / "terminal.bin"
    target = open_edit_dialog(tmux, library, record=raw)
    pasted = f"{MARKER} \x1b]2;PWNED\x07 \x1b[2J\x9b1m line one\rline two \x1b\x1b\x1b\x11 end"
    tmux.tmux("set-buffer", pasted)
    tmux.tmux("paste-buffer", "-p", "-t", target)  # -p: bracketed, as a terminal pastes
    tmux.wait_for(target, "line two")
    time.sleep(0.5)
    assert "Tags, separated by spaces or commas" in tmux.screen(target), "the paste closed the dialog"
    save_edit(tmux, target)
    tmux.quit_app(target)
    assert tmux.title(target) == Tmux.TITLE
    (content,) = edited_content(library)
    assert "]2;PWNED" in content and "line one\nline two" in content and "end" in content
    assert not any(c in content for c in "\x1b\x07\x9b\r")
    time.sleep(0.3)
    assert findings(raw.read_bytes()) == []


@pytest.mark.parametrize("fault", ["screen", "input", "worker", "screen review"])
def test_a_crash_exits_non_zero(fault: str, home: Path, tmux: Tmux) -> None:
    """The console script's path with a fault planted (tests/faults/scripts/crash_app.py), plain
    and through the click command line (`memoryrush review`): the app ends and the process exit
    status says it failed. It was 0 for all of them."""
    argv = [sys.executable, str(SCRIPTS / "crash_app.py"), *fault.split()]
    target = tmux.start(argv, mr_env(home), 120, 40)
    tmux.wait_dead(target, timeout=60)
    assert tmux.exit_status(target) == 1, tmux.screen(target)
    assert "planted" in tmux.screen(target)  # and the error is shown


# --- the fuzz ----------------------------------------------------------------------------------

# Keys that legitimately leave, quit, save or throw away typed text: the fuzz must not press
# them, or a lost edit would be the user's doing. Everything else goes: bytes that are not
# UTF-8, C0 and C1 controls, CSI / SS3 / OSC / DCS sequences, kitty keys, pastes with escapes.
LEAVING = {"escape", "ctrl+q", "ctrl+s", "ctrl+p", "ctrl+z", "tab", "shift+tab", "ctrl+r", "ctrl+x"}
TEXT_LOSING = {
    key
    for binding in TextArea.BINDINGS
    if any(word in binding.action for word in ("delete", "cut", "undo", "redo", "select", "(True)"))  # type: ignore[union-attr]
    for key in binding.key.split(",")  # type: ignore[union-attr]
}


def parsed(chunk: bytes) -> list[object]:
    """The events Textual's own parser makes of `chunk` (decoded as the app decodes input)."""
    parser = XTermParser()
    found = list(parser.feed(chunk.decode("utf-8", "replace")))
    try:
        found += list(parser.feed(""))
    except (EOFError, ParseError):
        pass
    return found


def harmless(chunk: bytes) -> bool:
    for event in parsed(chunk):
        if isinstance(event, events.Paste):
            continue
        if not isinstance(event, events.Key) or event.key in LEAVING | TEXT_LOSING:
            return False
    return True


def random_chunk(rng: random.Random) -> bytes:
    def params() -> bytes:
        return ";".join(str(rng.randrange(0, 300)) for _ in range(rng.randrange(0, 4))).encode()

    kind = rng.randrange(9)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
    if kind == 1:
        return b"\x1b[" + rng.choice([b"", b"?", b">", b"<"]) + params() + bytes([rng.randrange(0x40, 0x7F)])
    if kind == 2:
        return b"\x1bO" + bytes([rng.randrange(0x20, 0x7F)])
    if kind == 3:
        body = rng.choice([b"2;PWNED", b"52;c;cHduZWQ=", b"8;;https://evil.example", b"0;x"])
        return b"\x1b]" + body + rng.choice([b"\x07", b"\x1b\\"])
    if kind == 4:
        return b"\x1bP" + rng.choice([b"qPWNED", b"+q544e", b"1$r"]) + b"\x1b\\"
    if kind == 5:
        return (
            b"\x1b["
            + str(rng.randrange(1, 0x3000)).encode()
            + b";"
            + str(rng.randrange(1, 9)).encode()
            + b"u"
        )
    if kind == 6:
        text = rng.choice(["x\x1b]2;PWNED\x07y", "\x1b[2J\x9b31m", "中文\u202etxt", "line\rnext"])
        return b"\x1b[200~" + text.encode() + b"\x1b[201~"
    if kind == 7:
        return bytes([0xC2, rng.randrange(0x80, 0xA0)])
    return rng.choice(["a", "Z", " ", "9", "中", "é", "\n", "[@click=app.quit]"]).encode()


def fuzz(tmux: Tmux, target: str, rng: random.Random, seconds: float) -> int:
    """Send harmless-by-the-rules chunks for `seconds`; returns how many were sent."""
    sent = 0
    recent: list[bytes] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        chunk = random_chunk(rng)
        if not harmless(chunk):
            continue
        tmux.keys(target, *hex_keys(chunk))
        sent += 1
        recent = [*recent[-4:], chunk]
        time.sleep(0.12)  # longer than Textual's escape delay: each chunk is read on its own
        if sent % 5 == 0:
            assert not tmux.dead(target), f"the app exited after {recent!r}:\n{tmux.screen(target)}"
    assert not tmux.dead(target), f"the app exited after {recent!r}:\n{tmux.screen(target)}"
    return sent


def back_home(tmux: Tmux, target: str) -> None:
    """Escape until Home is on top, from wherever the fuzz went: it presses any key but the
    leaving ones, so it may go deeper than three screens (Library > Article, "t" > Triage, "/"
    > Search: the "t" of a typed "[@click=app.quit]"). Every screen and modal closes on Escape,
    so more than a dozen presses means one did not: a dead end."""
    for _ in range(12):
        tmux.keys(target, "Escape")
        time.sleep(0.4)
        if Tmux.HOME in tmux.screen(target):
            return
    tmux.wait_for(target, Tmux.HOME)


# (keys from Home, text on that screen): every screen the app has, each fuzzed in turn.
SCREENS = [
    ("", Tmux.HOME),
    ("i", "Path to a file"),
    ("l", "Paragraphs"),
    ("l Enter", "p_001"),
    ("t", "Accept"),
    ("r", "Review"),
    ("s", "Extractor"),
    (",", "desired retention"),
    ("?", "Everywhere"),
    ("/", "Search the library"),
]


@pytest.mark.slow
def test_fuzzed_input_never_ends_the_app_nor_loses_the_edit(library: Path, tmux: Tmux) -> None:
    rng = random.Random(20261201)
    started = time.monotonic()
    target = open_edit_dialog(tmux, library)
    tmux.keys(target, "-l", f"{MARKER}-1 ")
    sent = fuzz(tmux, target, rng, FUZZ_SECONDS / 4)  # the edit dialog gets the most
    tmux.keys(target, "-l", f" {MARKER}-2")
    tmux.wait_for(target, f"{MARKER}-2")
    save_edit(tmux, target)
    (content,) = saved_edit(library)
    assert f"{MARKER}-1" in content and f"{MARKER}-2" in content, content
    assert not any(c in content for c in "\x1b\x07\x9b\r\u202e"), repr(content)
    per_screen = FUZZ_SECONDS * 3 / 4 / len(SCREENS)
    for keys, shown in SCREENS:
        back_home(tmux, target)
        for key in keys.split():
            tmux.keys(target, key)
            time.sleep(0.3)
        tmux.wait_for(target, shown)
        sent += fuzz(tmux, target, rng, per_screen)
    assert sent > 50
    tmux.quit_app(target)
    assert tmux.exit_status(target) == 0, tmux.screen(target)
    print(f"fuzz: {sent} chunks in {time.monotonic() - started:.1f} s")
