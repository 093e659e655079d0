"""Shared helpers for the fault suite: run the real CLI in a subprocess, read the database directly.

Everything here observes the product from the outside: the `memoryrush` command with
MEMORYRUSH_HOME in tmp_path, and the SQLite file opened with the standard library.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = Path(__file__).resolve().parent / "scripts"
SAMPLES = ROOT / "sample_articles"
DB_NAME = "memoryrush.sqlite3"
# Any C0/C1 control byte except \n and \t (and \r, which click may print on some platforms), and
# the bidi embeddings, overrides and isolates that reorder what a terminal shows.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def cli_argv() -> list[str]:
    """The installed `memoryrush` entry point beside this interpreter, or the same via -c."""
    exe = Path(sys.executable).with_name("memoryrush")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-c", "from tui.cli.main import main; main()"]


def mr_env(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("OLLAMA_HOST", None)
    env["MEMORYRUSH_HOME"] = str(home)
    env.setdefault("MEMORYRUSH_BUSY_TIMEOUT_MS", "300")
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def run_mr(
    home: Path,
    *args: str,
    timeout: float = 60,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    prefix: Sequence[str] = (),
    **popen: Any,
) -> subprocess.CompletedProcess[str]:
    """Run `memoryrush ARGS` (after `prefix`, e.g. without_root_override()) to completion; text
    output, never raises on a non-zero exit."""
    return subprocess.run(
        [*prefix, *cli_argv(), *args],
        env=env or mr_env(home),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        cwd=cwd or home.parent,
        **popen,
    )


def run_mr_bytes(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*cli_argv(), *args], env=mr_env(home), capture_output=True, timeout=timeout)


# The words of the made-up articles the kill tests import (tests/test_import_kill.py adds two).
KILL_WORDS = [
    "memory",
    "evidence",
    "paragraph",
    "review",
    "schedule",
    "recall",
    "source",
    "quote",
    "grounded",
    "unit",
]


def db_file(home: Path) -> Path:
    return home / DB_NAME


def query(home: Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Read the library database with a fresh stdlib connection (closed afterwards)."""
    con = sqlite3.connect(str(db_file(home)), timeout=10)
    try:
        return list(con.execute(sql, params))
    finally:
        con.close()


def wal_frames(path: Path) -> tuple[int, int]:
    """(frames in the WAL, frames of it copied back), read by a passive checkpoint of nothing new."""
    con = sqlite3.connect(path)
    try:
        _, log, done = con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(log), int(done)
    finally:
        con.close()


def scalar(home: Path, sql: str, params: Sequence[Any] = ()) -> Any:
    rows = query(home, sql, params)
    return rows[0][0] if rows else None


def tables(home: Path) -> set[str]:
    return {r[0] for r in query(home, "SELECT name FROM sqlite_master WHERE type='table'")}


def integrity(home: Path) -> str:
    return str(scalar(home, "PRAGMA integrity_check"))


def library_problems(home: Path) -> list[str]:
    """Every way an import could be half-written; an empty list means the library is whole."""
    problems: list[str] = []
    if integrity(home) != "ok":
        problems.append(f"integrity_check: {integrity(home)}")
    fk = query(home, "PRAGMA foreign_key_check")
    if fk:
        problems.append(f"foreign_key_check: {fk[:5]}")
    for aid, count, stored in query(
        home,
        "SELECT a.id, a.paragraph_count, (SELECT COUNT(*) FROM paragraph p WHERE p.article_id = a.id) "
        "FROM article a",
    ):
        if count != stored or stored == 0:
            problems.append(f"article {aid}: paragraph_count {count} but {stored} paragraphs stored")
    for (aid,) in query(
        home,
        "SELECT a.id FROM article a WHERE NOT EXISTS (SELECT 1 FROM artifact r WHERE r.article_id = a.id)",
    ):
        problems.append(f"article {aid}: no artifact")
    for (uid,) in query(
        home, "SELECT u.id FROM unit u WHERE NOT EXISTS (SELECT 1 FROM evidence e WHERE e.unit_id = u.id)"
    ):
        problems.append(f"unit {uid}: no evidence")
    return problems


def write(path: Path, data: bytes | str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode(encoding)
    path.write_bytes(data)
    return path


def wait_for_line(proc: subprocess.Popen[str], needle: str, timeout: float = 20) -> str:
    """Read the process's stdout until a line containing `needle`; fail on timeout or exit."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if needle in line:
            return line
    raise AssertionError(f"{needle!r} not seen; output so far: {''.join(seen)[-2000:]}")


def without_root_override() -> list[str] | None:
    """An argv prefix under which file permissions hold even for root (who ignores them):
    setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH. [] when not root; None when root
    and setpriv is missing (the test cannot make a folder unreadable then)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"] if setpriv else None


# --- hostile text ----------------------------------------------------------------------------

MARKUP = "[@click=app.quit]click-me[/] [bold red]not-red[/] [link=https://evil.example]lnk[/link] [/]"
ESCAPES = (
    "\x1b]2;PWNED-TITLE\x07"  # set window title (OSC 2, BEL)
    "\x1b]0;PWNED-ICON\x1b\\"  # set icon+title (OSC 0, ST)
    "\x1b[2J\x1b[H"  # clear screen, cursor home
    "\x1b[31mred\x1b[0m"  # colour
    "\x1b]52;c;cHduZWQ=\x07"  # write the clipboard (OSC 52)
    "\x9b31m"  # 8-bit CSI
    "\x07\x08\x0b\x0c\x7f"  # bell, backspace, VT, FF, DEL
    "\u202etxt.exe\u2066"  # right-to-left override, isolate: reorder what follows
)
PAYLOAD = f"{MARKUP} {ESCAPES} $(touch /tmp/mr-pwned) `id` <script>alert(1)</script>"
# File names as a hostile archive could unpack them: each would act on the terminal if shown raw.
HOSTILE_NAMES = (
    "a-title\x1b]2;PWNED-TREE\x07.md",  # OSC 2: retitle the terminal
    "b-clip\x1b]52;c;cHduZWQ=\x07.md",  # OSC 52: write the clipboard
    "c-dcs\x1bPqPWNED\x1b\\.md",  # DCS string
    "d-c1\u009b2J.md",  # C1 CSI (UTF-8 c2 9b), then 2J
    "e-wipe\x1b[2J\x1b[H.md",  # clear the screen
    "f-bidi\u202etxt.exe.md",  # right-to-left override: reads "f-bidiexe.txt"
    "g-[@click=app.quit]x[b]y.md",  # markup
)


def import_one(home: Path, path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return mr(home, "import", str(path), "--extractor", "placeholder", *extra)


def article_id_for(home: Path, path: Path) -> int | None:
    row = query(
        home, "SELECT id FROM article WHERE source_path = ? ORDER BY version DESC", (str(path.resolve()),)
    )
    return int(row[0][0]) if row else None


def paragraphs_of(home: Path, article_id: int) -> list[tuple[str, str, str]]:
    """(paragraph_id, kind, text) in document order."""
    return [
        (r[0], r[1], r[2])
        for r in query(
            home,
            "SELECT paragraph_id, kind, text FROM paragraph WHERE article_id = ? ORDER BY position",
            (article_id,),
        )
    ]


def article_count(home: Path) -> int:
    if not db_file(home).exists():
        return 0
    return int(scalar(home, "SELECT COUNT(*) FROM article"))


def mr(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the real `memoryrush` click command in this process (CliRunner): the same code as the
    console script without the interpreter start-up, for tests that need no separate process."""
    from click.testing import CliRunner

    from tui.cli.main import cli

    result = CliRunner().invoke(cli, list(args), env={"MEMORYRUSH_HOME": str(home)})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        tb = "".join(traceback.format_exception(result.exception))
        return subprocess.CompletedProcess(args, 99, result.stdout, result.stderr + "\nTraceback:\n" + tb)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def _build_confirmed_library(home: Path) -> None:
    from core.services.bootstrap import open_services

    write(home / "config.toml", "[review]\nnew_per_day = 9999\nmax_reviews_per_day = 99999\n")
    svc = open_services(home)
    try:
        svc.library.import_paths([SAMPLES], extractor="placeholder")
        for article in svc.library.articles():
            svc.curation.accept_all_valid(article.id)
    finally:
        svc.close()


def confirmed_library(home: Path) -> int:
    """The sample articles imported (placeholder extractor) and every valid unit accepted:
    cards to review. High daily limits so a session never runs dry. Returns the card count.
    Built once per test process and copied in (tests/built_libraries.py)."""
    from built_libraries import copy_built

    copy_built("confirmed", home, _build_confirmed_library)
    cards = int(scalar(home, "SELECT COUNT(*) FROM card"))
    assert cards >= 10, "accepting units must create cards"
    return cards


def reps_mismatches(home: Path) -> list[tuple[Any, ...]]:
    return query(
        home,
        "SELECT c.id, c.reps, (SELECT COUNT(*) FROM review_log l WHERE l.card_id = c.id) AS logs "
        "FROM card c WHERE c.reps != logs",
    )


# a quote of sample_articles/photosynthesis.txt, and an agent's proposal of it
RUBISCO = "the enzyme RuBisCO fixes carbon dioxide from the air into organic molecules"


def rubisco_card(article_id: int, paragraph_id: str, **change: Any) -> dict[str, Any]:
    """A proposal a reviewer would keep (the card rules refuse a template or a whole-sentence
    answer): the RuBisCO sentence as a claim with a cloze on the enzyme; `change` replaces fields."""
    card: dict[str, Any] = {
        "article_id": article_id,
        "content": "The enzyme RuBisCO fixes carbon dioxide from the air into organic molecules.",
        "memory_type": "claim",
        "evidence": [{"paragraph_id": paragraph_id, "quote": RUBISCO}],
        "questions": [
            {
                "question": "The enzyme ____ fixes carbon dioxide from the air into organic molecules.",
                "expected_answer": "RuBisCO",
                "kind": "cloze",
            }
        ],
        "tags": ["RuBisCO", "Calvin cycle"],
    }
    return {**card, **change}
