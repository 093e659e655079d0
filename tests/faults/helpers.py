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
# Any C0/C1 control byte except \n and \t (and \r, which click may print on some platforms).
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


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
    home: Path, *args: str, timeout: float = 60, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `memoryrush ARGS` to completion; text output, never raises on a non-zero exit."""
    return subprocess.run(
        [*cli_argv(), *args],
        env=env or mr_env(home),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        cwd=cwd or home.parent,
    )


def run_mr_bytes(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*cli_argv(), *args], env=mr_env(home), capture_output=True, timeout=timeout)


def db_file(home: Path) -> Path:
    return home / DB_NAME


def query(home: Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Read the library database with a fresh stdlib connection (closed afterwards)."""
    con = sqlite3.connect(str(db_file(home)), timeout=10)
    try:
        return list(con.execute(sql, params))
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


def tmux_available() -> bool:
    return shutil.which("tmux") is not None
