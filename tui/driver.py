"""The terminal driver: Textual's Linux driver with two guards on what comes *in*.

1. A byte that is not UTF-8 (`e9` from a Latin-1 terminal, a stray C1 `9b`) made Textual's input
   thread die of a UnicodeDecodeError, which ends the app (an unsaved edit lost, exit status 0).
   Here it is decoded as U+FFFD: typed into a field it shows as "�", elsewhere it does nothing.
2. Pasted text is data. Textual's parser reads an ESC inside a bracketed paste as the start of
   a key sequence and hands the rest of it to the app as *key presses*: pasting
   "hello\x1b\x11world" pressed ctrl+q (the app quit), "\x1b\x1b" pressed Escape (an edit
   dialog closed), "\x1bA" pressed A (Triage's accept-all). PasteGuard takes every control
   character (core.text.UNSAFE) out of a paste before the parser sees it; line breaks stay.

Both need the input thread: `run_input_thread` below is `LinuxDriver`'s, copied from Textual
8.2 with two changes marked "MemoryRush:". pyproject pins textual to 8.2.x for it, and
tests/tui/test_driver.py fails when Textual's method changes (its source no longer hashes to
UPSTREAM_SHA256): then copy the new one here and keep the two changes.
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from typing import Any, TextIO

from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

# sha256 of inspect.getsource(LinuxDriver.run_input_thread) in the Textual this was copied from.
UPSTREAM_SHA256 = "d796af6d69db337d"


PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def clean_paste(text: str) -> str:
    """Pasted text as data: terminals send line breaks as CR; every other control goes."""
    from core.text import UNSAFE  # (compiled at the first paste: the driver starts before the first frame)

    return UNSAFE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def _marker_prefix_at_end(text: str, marker: str) -> int:
    """Length of the longest end of `text` that starts `marker` (0 if none)."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-size:]):
            return size
    return 0


class PasteGuard:
    """Filters the decoded input stream: between the paste brackets only text passes.

    Input outside a paste passes untouched and at once (an Escape key is never held back). A
    paste's end marker cut between two reads is held until the rest arrives; a start marker
    cut between two reads is recognised from the part already passed on.
    """

    def __init__(self) -> None:
        self.pasting = False
        self._held = ""  # inside a paste: a possible start of the end marker
        self._started = ""  # outside: an end of the last read that may begin the start marker

    def __call__(self, data: str) -> str:
        out: list[str] = []
        if not self.pasting and self._started:
            rest = PASTE_START[len(self._started) :]
            if data.startswith(rest):
                out.append(rest)
                data = data[len(rest) :]
                self.pasting = True
        self._started = ""
        data, self._held = self._held + data, ""
        while data:
            if not self.pasting:
                start = data.find(PASTE_START)
                if start < 0:
                    self._started = data[len(data) - _marker_prefix_at_end(data, PASTE_START) :]
                    out.append(data)
                    break
                out.append(data[: start + len(PASTE_START)])
                data = data[start + len(PASTE_START) :]
                self.pasting = True
                continue
            end = data.find(PASTE_END)
            if end < 0:
                keep = _marker_prefix_at_end(data, PASTE_END)
                out.append(clean_paste(data[: len(data) - keep]))
                self._held = data[len(data) - keep :]
                break
            out.append(clean_paste(data[:end]) + PASTE_END)
            data = data[end + len(PASTE_END) :]
            self.pasting = False
        return "".join(out)


class TerminalOut:
    """The driver's output file, which a terminal gone away cannot stop. Textual's output thread
    writes to it; when the terminal closes (SIGHUP, a killed tmux) a write raises EIO, the
    thread dies, its bounded queue fills and the next write blocks the UI thread for ever (the
    app hung at quit, holding the library's lock). Here a failed write marks the terminal gone
    and every later write and flush is dropped: the thread keeps draining, nothing blocks."""

    def __init__(self, file: TextIO) -> None:
        self._file = file
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._file.write(text)
            except (OSError, ValueError):  # EIO / EPIPE, or a closed file
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.gone = True

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()


class GuardedDriver(LinuxDriver):
    """LinuxDriver whose input thread survives any byte, whose pastes are only text and whose
    output survives the terminal going away (TerminalOut)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._file = TerminalOut(self._file)  # type: ignore[assignment]

    def _sigcont_application(self, *_: Any) -> None:
        """Continued (SIGCONT), Textual takes the terminal back, and when the shell has put the
        app in the background (it was stopped from outside meanwhile) that stops it again
        (SIGTTOU), for good if a SIGTERM came with the SIGCONT: it stayed stopped holding the
        instance lock, 2 times in 31 after tui/quitting.py's fix (whose handler must run first).
        Here the terminal is taken back only in the foreground; `fg` continues the app again,
        from the foreground, and then it is."""
        try:
            foreground = os.tcgetpgrp(self.fileno) == os.getpgrp()
        except OSError:  # no terminal
            foreground = True
        if foreground:
            super()._sigcont_application(*_)

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events (Textual's, with the two changes above)."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)

        fileno = self.fileno
        EVENT_READ = selectors.EVENT_READ

        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick

        # MemoryRush: errors="replace" (a byte that is not UTF-8 no longer kills the thread)
        utf8_decoder = getincrementaldecoder("utf-8")(errors="replace").decode
        decode = utf8_decoder
        guard = PasteGuard()  # MemoryRush
        read = os.read

        def process_selector_events(
            selector_events: list[tuple[selectors.SelectorKey, int]],
            final: bool = False,
        ) -> None:
            for last, (_selector_key, mask) in loop_last(selector_events):
                if mask & EVENT_READ:
                    unicode_data = decode(read(fileno, 1024 * 4), final=final and last)
                    if not unicode_data:
                        # This can occur if the stdin is piped
                        break
                    text = guard(unicode_data)  # MemoryRush: pastes are only text
                    for event in feed(text) if text else ():  # (feed("") means end of input)
                        self.process_message(event)
            for event in tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process_selector_events(selector.select(0.1))
            selector.unregister(self.fileno)
            process_selector_events(selector.select(0.1), final=True)

        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass
