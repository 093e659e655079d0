"""An Anki export to a full disk: the sentence every export gives, no traceback, nothing left.

The Anki package is built as a SQLite collection in a scratch file beside the target; SQLite's
own "database or disk is full" came out of it as a traceback (issue 34, item 13.1) while the
other exports said "could not write OUT: disk full; nothing was written there".

Two full disks: SQLite's real SQLITE_FULL, raised by a page limit on the scratch collection
(`PRAGMA max_page_count`, the way tests/faults/test_disk_full.py fills the library), with the
command run in this process; and a file-size limit on the real `memoryrush` in a subprocess
(RLIMIT_FSIZE: every write past it fails with EFBIG, which SQLite reports as an I/O error).
"""

from __future__ import annotations

import resource
import signal
import sqlite3
from pathlib import Path

import pytest

import core.services.export.anki as anki

from .helpers import confirmed_library, mr, run_mr


def _leftovers(target: Path) -> list[Path]:
    """The partial file and the scratch collection beside it."""
    return list(target.parent.glob(f".{target.name}.*"))


def test_an_anki_export_to_a_full_disk_says_so_and_leaves_nothing(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    confirmed_library(home)
    target = tmp_path / "out.apkg"
    real = sqlite3.connect

    def full(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        con = real(path, *args, **kwargs)
        if str(path).endswith(".anki2"):  # the scratch collection only, not the library
            con.execute("PRAGMA max_page_count = 14")  # genanki's schema fits (13 pages); the notes do not
        return con

    monkeypatch.setattr(anki.sqlite3, "connect", full)
    result = mr(home, "export", "anki", str(target))

    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr, result.stderr
    assert f"could not write {target}: disk full; nothing was written there" in result.stderr
    assert not target.exists()
    assert _leftovers(target) == []


def _file_size_limit() -> None:  # runs in the child: a file may not grow past 60 kB
    resource.setrlimit(resource.RLIMIT_FSIZE, (60_123, 60_123))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def test_an_anki_export_past_a_file_size_limit_is_a_sentence(home: Path, tmp_path: Path) -> None:
    confirmed_library(home)
    target = tmp_path / "out.apkg"

    result = run_mr(home, "export", "anki", str(target), preexec_fn=_file_size_limit)

    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr, result.stderr
    assert f"could not write {target}: disk I/O error; nothing was written there" in result.stderr
    assert not target.exists()
    assert _leftovers(target) == []
    assert run_mr(home, "export", "anki", str(target)).returncode == 0  # space again: it works


def test_a_markdown_export_stopped_part_way_says_what_it_wrote(home: Path, tmp_path: Path) -> None:
    """Re-attack (issue 34 item 13): a Markdown export onto a full disk (a 12 kB tmpfs) left the
    files written before the failing one and said "nothing was written there" about that one
    only. Each file is written whole or not at all; the error now says how many came before it."""
    import subprocess

    confirmed_library(home)
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(small)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"no tmpfs to fill here (mount: {mounted.stderr.decode(errors='replace').strip()})")
    try:
        target = small / "notes"
        result = mr(home, "export", "markdown", str(target))
        assert result.returncode == 2, result
        assert "Traceback" not in result.stderr, result.stderr
        written = sorted(target.glob("*.md"))
        assert written, result.stderr  # the samples' first files fit in 12 kB, not all four
        said = f"The {len(written)} {'file' if len(written) == 1 else 'files'} before it (of 4)"
        assert "disk full; nothing was written there. " + said in result.stderr, result.stderr
        assert not list(target.glob(".*partial*"))  # each file whole or not there
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)
