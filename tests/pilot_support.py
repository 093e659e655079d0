"""Waiting on the real app under Pilot, shared by tests/tui, tests/faults and bench/replay_keys.py.

`settle` lets the app's work end before a test looks: the writer thread's commands
(tui/workers.py), then every worker of ours, then a repaint, three rounds (a finished worker may
start another). `screen_text` is what the terminal shows, as plain text.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import DirectoryTree
from textual.worker import WorkerFailed


async def settle(pilot: Any, rounds: int = 3) -> None:
    """Let the writer thread and our workers finish and the screen repaint."""
    app = pilot.app
    for _ in range(rounds):
        while app.worker_threads.writing():  # the writer thread's commands (tui/workers.py)
            await pilot.pause(0.005)
        # DirectoryTree keeps a loader worker alive for its whole life: don't wait for it.
        ours = [w for w in app.workers if not isinstance(w.node, DirectoryTree)]
        if ours:  # (an empty list would mean "all workers")
            try:
                await app.workers.wait_for_complete(ours)
            except WorkerFailed:  # the app reports it as a notice; tests check that
                pass
        await pilot.pause()


def screen_text(app: Any) -> str:
    """What the terminal shows right now, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
