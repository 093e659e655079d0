"""`kill -9` during a backup: the next backup removes the partial file it left, and says so.

A backup is written under a hidden partial name in the backup folder and renamed when whole; a
writer killed half way leaves that file (25 MB for a 25 MB library). Every backup has a new name,
so the removal of a dead writer's partial file of the same name (what exports do) never found it
(issue 34, item 13.2). The writer here is the real backup_now, stopped after its first step in
tests/faults/scripts/backup_midway.py and killed with SIGKILL; the next backup is the real
`memoryrush backup`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from .helpers import ROOT, run_mr

sys.path.insert(0, str(ROOT))
from bench.library_rows import fill_library


def _partials(home: Path) -> list[Path]:
    return sorted((home / "backups").glob(".*.partial*"))


def _library(home: Path) -> None:
    assert run_mr(home, "list").returncode == 0
    fill_library(home / "memoryrush.sqlite3", 300, now=int(time.time()))


def test_the_next_backup_removes_what_a_killed_backup_left_and_says_so(home: Path, start_holder) -> None:  # type: ignore[no-untyped-def]
    _library(home)
    writer = start_holder("backup_midway.py", ready="copying")
    writer.kill()  # SIGKILL, half way through the copy
    assert len(_partials(home)) == 1  # the dead writer's file

    done = run_mr(home, "backup")

    assert done.returncode == 0, done.stderr
    assert "removed 1 unfinished backup left by a crash" in done.stdout, done.stdout
    assert _partials(home) == []
    assert len(list((home / "backups").glob("memoryrush-manual-*.sqlite3"))) == 1
    again = run_mr(home, "backup")
    assert again.returncode == 0 and "unfinished" not in again.stdout, again.stdout


def test_a_backup_under_way_keeps_its_partial_file(home: Path, start_holder) -> None:  # type: ignore[no-untyped-def]
    """Two backups at once (the CLI beside the app): the other writer is alive, its file stays."""
    _library(home)
    writer = start_holder("backup_midway.py", ready="copying")
    (running,) = _partials(home)

    done = run_mr(home, "backup")

    assert done.returncode == 0, done.stderr
    assert "unfinished" not in done.stdout
    assert _partials(home) == [running]
    writer.kill()
