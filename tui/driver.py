"""The terminal driver: Textual's Linux driver with two guards on what comes *in*.

1. A byte that is not UTF-8 (`e9` from a Latin-1 terminal, a stray C1 `9b`) made Textual's input
   thread die of a UnicodeDecodeError, which ends the app (an unsaved edit lost, exit status 0).
   Here it is decoded as U+FFFD: typed into a field it shows as "�", elsewhere it does nothing.
2. Pasted text (bracketed paste) carries whatever the clipboard held, escape sequences
   included, straight into an Input or TextArea, which would draw them raw. Pastes pass the one
   gate (core.text.sanitize) here, before any widget sees them; line breaks are kept.

The first guard needs a Textual internal: `run_input_thread` below is `LinuxDriver`'s, copied
from Textual 8.2 with one change (the decoder's `errors="replace"`). pyproject pins textual to
8.2.x for it, and tests/tui/test_driver.py fails when Textual's method changes (its source no
longer hashes to UPSTREAM_SHA256): then copy the new one here and keep the one change.
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder

from textual import events
from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from core.text import sanitize

# sha256 of inspect.getsource(LinuxDriver.run_input_thread) in the Textual this was copied from.
UPSTREAM_SHA256 = "d796af6d69db337d"


def clean_paste(text: str) -> str:
    """Pasted text as data: terminals send line breaks as CR; control sequences go."""
    return sanitize(text.replace("\r\n", "\n").replace("\r", "\n"))


class GuardedDriver(LinuxDriver):
    """LinuxDriver whose input thread survives any byte and whose pastes are sanitised."""

    def process_message(self, message: Message) -> None:
        if isinstance(message, events.Paste):
            message = events.Paste(clean_paste(message.text))
        super().process_message(message)

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events (Textual's, with errors="replace": see above)."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)

        fileno = self.fileno
        EVENT_READ = selectors.EVENT_READ

        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick

        utf8_decoder = getincrementaldecoder("utf-8")(errors="replace").decode  # the one change
        decode = utf8_decoder
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
                    for event in feed(unicode_data):
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
