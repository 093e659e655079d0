"""`memoryrush --demo`: a throw-away library with the sample articles, removed when the app exits.

The library lives in a fresh temporary folder marked with the owning process id (`demo.pid`).
It is removed when the app exits, by a normal quit, an error, Ctrl+C, SIGTERM or SIGHUP (the
terminal closed). A `kill -9` or a power cut cannot be caught: the next `--demo` removes the
folders of demo processes that no longer run.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

PREFIX = "memoryrush-demo-"
MARK = "demo.pid"


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def sweep_stale(root: Path | None = None) -> list[Path]:
    """Remove demo folders (ours: marked, in the temp folder) whose process is gone."""
    removed: list[Path] = []
    for folder in Path(root or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            pid = int((folder / MARK).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue  # not a marked demo folder (or not readable): leave it alone
        if pid != os.getpid() and not _running(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _exit_on(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through the `finally` that removes the folder


@contextmanager
def demo_home() -> Iterator[Path]:
    """A marked temporary folder for the demo library, removed on the way out."""
    sweep_stale()
    home = Path(tempfile.mkdtemp(prefix=PREFIX))
    (home / MARK).write_text(str(os.getpid()), encoding="ascii")
    previous = {sig: signal.signal(sig, _exit_on) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield home
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        shutil.rmtree(home, ignore_errors=True)
        if home.exists():  # (a file still open elsewhere)
            print(f"memoryrush: could not remove the demo library {home}", file=sys.stderr)
