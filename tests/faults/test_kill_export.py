"""`kill -9` during an export or a restore, with the real `memoryrush` command.

Export: after each kill there is either no file under the final name or the whole, valid file
(never half of one); the next export removes the dead writer's partial file. Restore: after each
kill the library passes integrity_check and is either the library it was or the backup, whole,
with the one it was kept as a backup once the restore had begun.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from .helpers import ROOT, cli_argv, integrity, mr_env, run_mr, scalar

sys.path.insert(0, str(ROOT))
from bench.library_rows import fill_library

ROUNDS = 8


def _library(home: Path, cards: int) -> None:
    assert run_mr(home, "list").returncode == 0  # creates the empty library
    fill_library(home / "memoryrush.sqlite3", cards, now=int(time.time()))


def _partials(target: Path) -> list[Path]:
    """The partial file and any scratch file beside it (the Anki export's collection)."""
    return list(target.parent.glob(f".{target.name}.*.partial*"))


def _kill_when_writing(home: Path, args: list[str], target: Path, rng: random.Random) -> bool:
    """Start the command, wait until its partial file exists, kill -9 a little later. True when
    the kill landed before the file was complete."""
    proc = subprocess.Popen(
        [*cli_argv(), *args], env=mr_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while not _partials(target) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(rng.uniform(0.0, 0.4))
    proc.kill()
    proc.wait(timeout=10)
    return not target.exists()


def _valid(target: Path, fmt: str) -> bool:
    if fmt == "json":
        data = json.loads(target.read_text(encoding="utf-8"))
        return bool(data["tables"]["card"]["rows"])
    with zipfile.ZipFile(target) as package:
        return package.testzip() is None and "collection.anki2" in package.namelist()


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("fmt", ["json", "anki"])
def test_kill_9_during_an_export_never_leaves_half_a_file(home: Path, tmp_path: Path, fmt: str) -> None:
    _library(home, 20_000)
    rng = random.Random(18)
    target = tmp_path / ("out.json" if fmt == "json" else "out.apkg")
    mid_write = 0
    for _ in range(ROUNDS):
        target.unlink(missing_ok=True)
        for left in _partials(target):  # the last round's: the wait below is for this writer's
            left.unlink()  # (an export removes a dead writer's partials as it starts)
        if _kill_when_writing(home, ["export", fmt, str(target)], target, rng):
            mid_write += 1
            assert not target.exists()  # nothing under the final name...
            assert _partials(target)  # ...only the partial file the dead writer left
        else:
            assert _valid(target, fmt)  # it had finished: the whole file
    assert mid_write >= ROUNDS // 2, f"only {mid_write} of {ROUNDS} kills landed mid-write"
    done = run_mr(home, "export", fmt, str(target), timeout=300)
    assert done.returncode == 0, done.stderr
    assert _valid(target, fmt)
    assert _partials(target) == []  # the dead writers' partial files are gone


def _articles(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM article").fetchone()[0])
    finally:
        con.close()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_kill_9_during_restore_loses_nothing(home: Path, tmp_path: Path) -> None:
    _library(home, 40_000)
    backup = tmp_path / "big.sqlite3"
    assert run_mr(home, "backup", str(backup)).returncode == 0
    small = tmp_path / "small"
    small.mkdir()
    assert run_mr(small, "list").returncode == 0
    fill_library(small / "memoryrush.sqlite3", 200, now=int(time.time()))
    small_backup = tmp_path / "small.sqlite3"
    assert run_mr(small, "backup", str(small_backup)).returncode == 0
    big, little = _articles(backup), _articles(small_backup)
    rng = random.Random(19)
    landed = 0
    for round_no in range(ROUNDS):
        source = small_backup if round_no % 2 == 0 else backup
        before = scalar(home, "SELECT COUNT(*) FROM article")
        proc = subprocess.Popen(
            [*cli_argv(), "restore", str(source), "--yes"],
            env=mr_env(home),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.2, 1.5))
        proc.kill()
        proc.wait(timeout=10)
        assert integrity(home) == "ok", f"round {round_no}"
        after = scalar(home, "SELECT COUNT(*) FROM article")
        assert after in (before, _articles(source)), f"round {round_no}: {after} articles"
        landed += after == before and proc.returncode != 0
        kept = sorted((home / "backups").glob("memoryrush-before-restore-*.sqlite3"))
        for copy in kept:  # every copy of the library as it was is whole
            assert _articles(copy) in (big, little)
    print(f"kill-restore: {landed} of {ROUNDS} kills left the library as it was")
    done = run_mr(home, "restore", str(backup), "--yes", timeout=300)
    assert done.returncode == 0, done.stderr
    assert _articles(home / "memoryrush.sqlite3") == big and integrity(home) == "ok"
