"""kill -9 in the middle of imports, again and again: never a half-imported article.

A warm parent process (tests/scripts/import_zygote.py) forks an importer per round; the test
SIGKILLs it at a random moment inside the measured import time. After every kill the SQLite
file passes integrity_check and every article is whole: all its paragraphs, its artifact, and
its units with their evidence and questions.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

from faults.helpers import KILL_WORDS, library_problems
from process_support import count, start_script

ROUNDS = 20
ARTICLES = 60
WORDS = [*KILL_WORDS, "forgetting", "curve"]


def make_folder(folder: Path, rng: random.Random, tag: str) -> None:
    folder.mkdir(parents=True)
    for i in range(ARTICLES):
        paragraphs = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60))).capitalize()
            + f" ({tag} {i}.{j})."
            for j in range(rng.randint(5, 15))
        ]
        (folder / f"a{i:02d}.txt").write_text("\n\n".join(paragraphs), encoding="utf-8")


def problems(db: Path) -> list[str]:
    """Every way an article could be half-written (the fault tests' checks, and more: one
    artifact each, as many units as it lists, each with its questions); empty when whole."""
    found = library_problems(db.parent)
    con = sqlite3.connect(db)
    try:
        for article_id, output in con.execute("SELECT article_id, output_json FROM artifact").fetchall():
            expected = len(json.loads(output)["memory_units"])
            units = con.execute("SELECT COUNT(*) FROM unit WHERE article_id = ?", (article_id,)).fetchone()[0]
            if units != expected or expected == 0:
                found.append(f"article {article_id}: {units} of {expected} units")
        for (article_id,) in con.execute(
            "SELECT article_id FROM artifact GROUP BY article_id HAVING COUNT(*) > 1"
        ).fetchall():
            found.append(f"article {article_id}: more than one artifact")
        missing = con.execute(
            "SELECT COUNT(*) FROM unit u WHERE NOT EXISTS (SELECT 1 FROM question q WHERE q.unit_id = u.id)"
        ).fetchone()[0]
        if missing:
            found.append(f"{missing} units without question")
        return found
    finally:
        con.close()


def test_kill_9_at_random_moments_never_leaves_half_an_article(tmp_path: Path) -> None:
    home = tmp_path / "library"
    db = home / "memoryrush.sqlite3"
    rng = random.Random(20261129)
    zygote = start_script("import_zygote.py", home)
    assert zygote.stdin is not None and zygote.stdout is not None

    def start(folder: Path) -> int:
        zygote.stdin.write(f"go {folder}\n")  # type: ignore[union-attr]
        zygote.stdin.flush()  # type: ignore[union-attr]
        line = zygote.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("child "), line
        return int(line.split()[1])

    def finished() -> int:
        line = zygote.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("exit "), line
        return int(line.split()[1])

    try:
        assert zygote.stdout.readline().strip() == "ready"
        # Round 0 runs to the end: it measures how long a folder takes.
        make_folder(tmp_path / "in" / "r00", rng, "r00")
        began = time.monotonic()
        start(tmp_path / "in" / "r00")
        assert finished() == 0
        full = time.monotonic() - began
        assert count(db, "SELECT COUNT(*) FROM article") == ARTICLES
        assert problems(db) == []

        killed_mid_import = round_no = 0
        # ROUNDS rounds, and more until ROUNDS // 2 kills have landed mid-import (a loaded
        # machine's timings drift from round 0's, so some kills land before the first article or
        # after the last), at most 3 * ROUNDS; every round's library is checked all the same.
        while round_no < ROUNDS or (killed_mid_import < ROUNDS // 2 and round_no < 3 * ROUNDS):
            round_no += 1
            folder = tmp_path / "in" / f"r{round_no:02d}"
            make_folder(folder, rng, f"r{round_no:02d}")
            before = count(db, "SELECT COUNT(*) FROM article")
            pid = start(folder)
            time.sleep(rng.uniform(0.05, 0.95) * full)
            with contextlib.suppress(ProcessLookupError):  # it may have finished already
                os.kill(pid, signal.SIGKILL)
            code = finished()
            assert problems(db) == [], f"round {round_no}"
            landed = count(db, "SELECT COUNT(*) FROM article") - before
            if code == -signal.SIGKILL and 0 < landed < ARTICLES:
                killed_mid_import += 1
        print(f"{killed_mid_import} of {round_no} kills landed mid-import; a full folder took {full:.2f} s")
        # The kills really did land in the middle of imports, not before or after them.
        assert killed_mid_import >= ROUNDS // 2, killed_mid_import

        # The library is still usable: finishing one interrupted folder imports only what is missing.
        start(tmp_path / "in" / "r01")
        assert finished() == 0
        assert count(db, "SELECT COUNT(*) FROM article WHERE source_path LIKE '%/r01/%'") == ARTICLES
        assert count(db, "SELECT COUNT(*) FROM article") == count(
            db, "SELECT COUNT(DISTINCT document_id) FROM article"
        )
        assert problems(db) == []
    finally:
        zygote.kill()
        zygote.wait(timeout=10)
