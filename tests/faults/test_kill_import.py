"""`kill -9` during import, 20 times at random moments: no half-imported article, integrity ok.

Each round starts a real `memoryrush import FOLDER` on a fresh folder of articles and SIGKILLs
it after a random delay, while it is writing. After every kill the database must be whole:
every article has all its paragraphs, an artifact, evidence for every unit. Finally an
uninterrupted import of everything completes the library with each document exactly once.
"""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from .helpers import KILL_WORDS, cli_argv, library_problems, mr_env, run_mr, scalar, wait_for_line, write

ROUNDS = 20
FILES_PER_ROUND = 6


def _round_folder(inputs: Path, round_no: int, rng: random.Random) -> Path:
    folder = inputs / f"round{round_no:02d}"
    for i in range(FILES_PER_ROUND):
        paras = [
            " ".join(rng.choice(KILL_WORDS) for _ in range(40)).capitalize()
            + f" (round {round_no}, doc {i}, para {j})."
            for j in range(rng.randint(80, 160))
        ]
        write(folder / f"doc{i:02d}.txt", "\n\n".join(paras))
    return folder


def _stored_from(home: Path, folder: Path) -> int:
    return int(
        scalar(home, "SELECT COUNT(*) FROM article WHERE source_path LIKE ?", (f"{folder.resolve()}/%",))
    )


@pytest.mark.slow
def test_kill_9_during_import_never_leaves_half_an_article(home: Path, inputs: Path) -> None:
    assert run_mr(home, "list").returncode == 0  # the database exists before the first kill
    rng = random.Random(2026)
    landed_mid_import = 0
    for round_no in range(ROUNDS):
        folder = _round_folder(inputs, round_no, rng)
        cmd = [*cli_argv(), "import", str(folder), "--extractor", "placeholder"]
        proc = subprocess.Popen(
            cmd, env=mr_env(home), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        wait_for_line(proc, "imported", timeout=60)  # the first article is in: the import is under way
        started = time.monotonic()
        wait_for_line(proc, "imported", timeout=60)  # the second: how long one article takes here
        # four articles remain: a kill within three articles' time lands while they are written
        time.sleep(rng.uniform(0.0, 3 * (time.monotonic() - started)))
        proc.kill()
        proc.wait(timeout=10)
        problems = library_problems(home)
        assert problems == [], f"round {round_no}: {problems}"
        if 0 < _stored_from(home, folder) < FILES_PER_ROUND:
            landed_mid_import += 1
    print(f"kill-import: {landed_mid_import} of {ROUNDS} kills mid-import")
    assert landed_mid_import >= ROUNDS // 2, f"only {landed_mid_import} of {ROUNDS} kills landed mid-import"

    done = run_mr(home, "import", str(inputs), "--extractor", "placeholder", timeout=120)
    assert done.returncode == 0, done.stderr
    assert library_problems(home) == []
    assert scalar(home, "SELECT COUNT(*) FROM article") == ROUNDS * FILES_PER_ROUND
    assert scalar(home, "SELECT COUNT(DISTINCT source_path) FROM article") == ROUNDS * FILES_PER_ROUND
