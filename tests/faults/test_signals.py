"""SIGTERM and SIGHUP (the terminal closed) end the app as a quit does: the terminal is given
back, the exit status is 128 + the signal, and the process does not wait on anything. Before,
the default action killed it with the terminal still in the app's screen (and under `--demo`,
a SystemExit raised wherever the signal landed could leave it waiting on Textual's threads for
ever: tests/faults/test_demo.py)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from .helpers import cli_argv, mr_env
from .tmux import Tmux


def _app_pid(tmux: Tmux, target: str) -> int:
    """The app: the one child of the window's shell."""
    shell = tmux.tmux("display", "-p", "-t", target, "#{pane_pid}").strip()
    [child] = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    return int(child)


def test_sigterm_and_sighup_end_the_app_as_a_quit_does(tmux: Tmux, tmp_path: Path) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        target = tmux.start(cli_argv(), mr_env(tmp_path / f"home-{sig}"), width=100, height=30)
        tmux.wait_for(target, Tmux.HOME, timeout=60)
        os.kill(_app_pid(tmux, target), sig)
        tmux.wait_dead(target)
        assert tmux.exit_status(target) == 128 + sig
        assert Tmux.HOME not in tmux.screen(target)  # the terminal was given back
