"""`memoryrush --demo` leaves nothing behind: its temporary library goes when the app quits, on
SIGTERM and SIGHUP too; after a `kill -9` (which cannot be caught) the next demo removes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tui.cli.demo import MARK, PREFIX, sweep_stale

from .helpers import cli_argv, mr_env
from .tmux import Tmux


def _demo_dirs(root: Path) -> list[Path]:
    return sorted(root.glob(PREFIX + "*"))


def _pid_of(folder: Path) -> int:
    return int((folder / MARK).read_text(encoding="ascii"))


def _wait_gone(root: Path, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while _demo_dirs(root) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _demo_dirs(root), _demo_dirs(root)


def test_the_demo_library_goes_on_quit_sigterm_sighup_and_after_kill_9(tmux: Tmux, tmp_path: Path) -> None:
    root = tmp_path / "tmp"
    root.mkdir()
    argv = ["env", f"TMPDIR={root}", *cli_argv(), "--demo"]
    env = mr_env(tmp_path / "unused")
    quit_ = tmux.start(argv, env, width=100, height=30)
    tmux.wait_for(quit_, "MemoryRush — Home", timeout=60)
    [folder] = _demo_dirs(root)
    assert (folder / "memoryrush.sqlite3").exists()
    tmux.keys(quit_, "C-q")
    tmux.wait_dead(quit_)
    assert tmux.exit_status(quit_) == 0
    assert not _demo_dirs(root)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        target = tmux.start(argv, env, width=100, height=30)
        tmux.wait_for(target, "MemoryRush — Home", timeout=60)
        [folder] = _demo_dirs(root)
        os.kill(_pid_of(folder), sig)
        tmux.wait_dead(target)
        assert tmux.exit_status(target) == 128 + sig
        _wait_gone(root)

    killed = tmux.start(argv, env, width=100, height=30)
    tmux.wait_for(killed, "MemoryRush — Home", timeout=60)
    [stale] = _demo_dirs(root)
    os.kill(_pid_of(stale), signal.SIGKILL)
    tmux.wait_for(killed, f"{Tmux.EXIT}137")  # (on a screen the app could not restore)
    assert _demo_dirs(root) == [stale]  # nothing can run after a kill -9
    again = tmux.start(argv, env, width=100, height=30)
    tmux.wait_for(again, "MemoryRush — Home", timeout=60)
    assert stale not in _demo_dirs(root) and len(_demo_dirs(root)) == 1
    tmux.keys(again, "C-q")
    tmux.wait_dead(again)
    assert not _demo_dirs(root)


def test_the_sweep_removes_only_marked_folders_of_processes_that_are_gone(tmp_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(gone.stdout)
    dead, alive, unmarked = (tmp_path / f"{PREFIX}{n}" for n in ("dead", "alive", "unmarked"))
    for folder in (dead, alive, unmarked):
        folder.mkdir()
    (dead / MARK).write_text(str(dead_pid), encoding="ascii")
    (alive / MARK).write_text(str(os.getppid()), encoding="ascii")
    (tmp_path / "someone-else").mkdir()
    assert sweep_stale(tmp_path) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, unmarked.name, "someone-else"])
