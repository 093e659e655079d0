"""A stop flag handed down to long work as data (a `threading.Event` satisfies it).

The upper floor owns the flag and sets it (the Import screen's Cancel key); lower floors only
read it, between files and inside long per-file loops, and raise `Cancelled`. No callback
reaches back up a floor.
"""

from __future__ import annotations

from typing import Protocol

from core.domain.errors import Cancelled


class StopFlag(Protocol):
    def is_set(self) -> bool: ...


def check_stop(stop: StopFlag | None, what: str = "the import") -> None:
    """Raise Cancelled when the flag is set; a None flag never stops."""
    if stop is not None and stop.is_set():
        raise Cancelled(f"{what} was cancelled; nothing of the file in progress was saved")
