"""Quitting always ends the process (issue 34, item 9), and its lock with it.

The attack: Browse -> a -> 100 x "x X" at once -> ctrl+q -> the terminal closes; 2 of 3 times the
process stayed alive (the UI thread in Textual's shutdown, blocked on the output thread's full
queue once writes to the closed terminal failed; two workers in call_from_thread), holding the
instance lock: every later `memoryrush` said "already running". Now the output survives the
terminal going away (tui.driver.TerminalOut), and whatever else is stuck, the process ends
within tui.quitting.QUIT_DEADLINE_S of a quit, SIGTERM or SIGHUP.
"""

from __future__ import annotations

import os
import pty
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from textual.drivers._writer_thread import WriterThread

from tui.driver import TerminalOut
from tui.quitting import QUIT_DEADLINE_S

from .helpers import SCRIPTS, cli_argv, confirmed_library, mr_env, run_mr
from .tmux import Tmux


def _app_pid(tmux: Tmux, target: str) -> int:
    shell = tmux.tmux("display", "-p", "-t", target, "#{pane_pid}").strip()
    [child] = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    return int(child)


def _gone_within(pid: int, seconds: float) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return time.monotonic() - start
        try:  # reap it if it is ours (tmux's pane shell usually is the parent)
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return None


def test_the_output_thread_outlives_a_closed_terminal() -> None:
    """Writes to a terminal whose other end is gone (EIO) never block the writer's callers."""
    master, slave = pty.openpty()
    out = TerminalOut(os.fdopen(slave, "w", encoding="utf-8"))
    writer = WriterThread(out)  # type: ignore[arg-type]
    writer.start()
    os.close(master)  # the terminal closes
    done = threading.Event()

    def write_a_lot() -> None:
        for _ in range(500):  # far more than the writer's queue holds (30)
            writer.write("x" * 4096)
        done.set()

    threading.Thread(target=write_a_lot, daemon=True).start()
    assert done.wait(10), "a write blocked: the output thread died with the terminal"
    writer.stop()
    assert out.gone


def _attack(tmux: Tmux, home: Path, close_terminal: bool) -> tuple[int, float | None]:
    target = tmux.start(cli_argv(), mr_env(home), width=160, height=48)
    tmux.wait_for(target, Tmux.HOME, timeout=60)
    pid = _app_pid(tmux, target)
    tmux.keys(target, "b")
    tmux.wait_for(target, "Browse", timeout=30)
    time.sleep(0.5)
    tmux.keys(target, "a")
    time.sleep(0.3)
    tmux.keys(target, *(["x", "X"] * 100))
    tmux.keys(target, "C-q")
    if close_terminal:
        time.sleep(0.2)
        tmux.tmux("kill-session", "-t", target)
    return pid, _gone_within(pid, QUIT_DEADLINE_S + 6)


@pytest.mark.parametrize("close_terminal", [True, False])
def test_quit_during_a_burst_of_bulk_actions_ends_the_process(
    tmux: Tmux, home: Path, close_terminal: bool
) -> None:
    confirmed_library(home)
    for attempt in range(3):
        pid, took = _attack(tmux, home, close_terminal)
        if took is None:
            os.kill(pid, signal.SIGKILL)
        assert took is not None, f"try {attempt + 1}: still running {QUIT_DEADLINE_S + 6:.0f} s after ctrl+q"
        listed = run_mr(home, "list")  # the lock went with the process
        assert listed.returncode == 0 and "already running" not in listed.stderr, listed.stderr


@pytest.mark.parametrize(
    ("mode", "signum"), [("close", None), ("loop", signal.SIGTERM), ("loop", signal.SIGHUP)]
)
def test_a_stuck_quit_ends_by_the_deadline(tmux: Tmux, home: Path, mode: str, signum: int | None) -> None:
    """A hang planted where quitting waits (closing the library) or in the UI thread itself:
    the process still ends, QUIT_DEADLINE_S after the quit or the signal, with its status."""
    confirmed_library(home)
    target = tmux.start(
        [sys.executable, str(SCRIPTS / "stuck_quit.py"), mode], mr_env(home), width=120, height=36
    )
    tmux.wait_for(target, Tmux.HOME, timeout=60)
    pid = _app_pid(tmux, target)
    time.sleep(1.0)  # (loop: the UI thread is stuck from here)
    if signum is None:
        tmux.keys(target, "C-q")
    else:
        os.kill(pid, signum)
    took = _gone_within(pid, QUIT_DEADLINE_S + 6)
    if took is None:
        os.kill(pid, signal.SIGKILL)
    assert took is not None and took >= QUIT_DEADLINE_S - 1, took
    tmux.wait_dead(target)
    assert tmux.exit_status(target) == (0 if signum is None else 128 + signum)
    assert "left without the work in progress" in tmux.screen(target)
    assert run_mr(home, "list").returncode == 0


def test_stopped_from_outside_then_sigterm_and_sigcont_it_ends(tmux: Tmux, home: Path) -> None:
    """Re-attack (issue 34 item 9): the app run from an interactive shell, stopped from outside
    (SIGSTOP), sent SIGTERM, then SIGCONT. The shell had taken the terminal, so Textual's SIGCONT
    handler, taking it back, stopped the process again (SIGTTOU): it stayed stopped, holding the
    instance lock. Now it ends, with SIGTERM's status, and the lock goes with it."""
    import shlex

    confirmed_library(home)
    exports = " ".join(
        f"{k}={shlex.quote(v)}" for k, v in mr_env(home).items() if k.startswith(("MEMORYRUSH", "PYTHON"))
    )
    tmux.tmux(
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "job",
        "-x",
        "120",
        "-y",
        "36",
        "bash --norc --noprofile -i",
    )
    tmux.tmux("select-pane", "-t", "job", "-T", Tmux.TITLE)
    command = (
        f"env -u COLUMNS -u LINES TERM=xterm-256color {exports} {shlex.join(cli_argv())}; echo {Tmux.EXIT}$?"
    )
    tmux.tmux("send-keys", "-t", "job", command, "Enter")
    tmux.wait_for("job", Tmux.HOME, timeout=60)
    pid = _app_pid(tmux, "job")
    time.sleep(1.0)
    os.kill(pid, signal.SIGSTOP)
    time.sleep(1.0)  # the shell reports the job stopped and takes the terminal
    os.kill(pid, signal.SIGTERM)
    os.kill(pid, signal.SIGCONT)
    took = _gone_within(pid, QUIT_DEADLINE_S + 6)
    if took is None:
        os.kill(pid, signal.SIGKILL)
    assert took is not None, "still there (stopped again) after SIGTERM and SIGCONT"
    listed = run_mr(home, "list")
    assert listed.returncode == 0 and "already running" not in listed.stderr, listed.stderr
