"""The data folder and the files around it, when they are not what they should be: a file name
that is not UTF-8, a full disk in a new folder, a deleted lock file, an empty library file, an
unreadable subfolder, a read-only folder, bad bytes in a UTF-8 file. Each gives a clear sentence
(or just works) and no traceback; the real `memoryrush` runs in a subprocess.
"""

from __future__ import annotations

import os
import resource
import signal
from pathlib import Path

import pytest

from core.text.locations import path_from_text

from .helpers import SAMPLES, db_file, query, run_mr, without_root_override, write


def no_traceback(result: object) -> None:
    text = f"{getattr(result, 'stdout', '')}{getattr(result, 'stderr', '')}"
    assert "Traceback" not in text and "Error(" not in text, text


def test_a_file_name_that_is_not_utf8_imports_and_keeps_its_bytes(home: Path, inputs: Path) -> None:
    """b'caf\\xe9.md' (Latin-1) was refused with an internal UnicodeEncodeError, every time."""
    name = os.fsdecode(b"caf\xe9-notes.md")
    doc = write(inputs / name, "# Coffee\n\nA paragraph about coffee and memory.\n")
    first = run_mr(home, "import", str(inputs), "--extractor", "placeholder")
    assert first.returncode == 0, first.stderr
    assert "imported" in first.stdout and "caf\ufffd-notes.md" in first.stdout
    no_traceback(first)
    (stored,) = query(home, "SELECT source_path FROM article")[0]
    assert stored.startswith("file://") and "%E9" in stored  # lossless, and plain text
    assert os.fsencode(path_from_text(stored)) == os.fsencode(doc.resolve())
    again = run_mr(home, "import", str(doc), "--extractor", "placeholder")
    assert "already imported" in again.stdout


def _no_file_growth() -> None:  # runs in the child: every write past 0 bytes fails (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def test_a_full_disk_in_a_new_data_folder_is_a_sentence_and_leaves_no_lock_file(tmp_path: Path) -> None:
    """A file-size limit of 0 stands in for the full disk: the lock file can be made but not
    written. It gave an OSError traceback from the lock module and left an empty lock file."""
    home = tmp_path / "new-folder"
    result = run_mr(
        home,
        "import",
        str(SAMPLES / "photosynthesis.txt"),
        "--extractor",
        "placeholder",
        preexec_fn=_no_file_growth,
    )
    assert result.returncode == 2, result
    assert "cannot write the lock file" in result.stderr and "another --data-dir" in result.stderr
    no_traceback(result)
    assert not (home / "memoryrush.lock").exists()


def test_deleting_the_lock_file_lets_no_second_writer_in(home: Path, start_holder) -> None:  # type: ignore[no-untyped-def]
    start_holder("hold_instance.py", ready="ready")
    (home / "memoryrush.lock").unlink()
    second = run_mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder")
    assert second.returncode == 2, second.stdout
    assert "already running" in second.stderr
    assert query(home, "SELECT COUNT(*) FROM article")[0][0] == 0


def test_an_empty_library_file_says_a_new_library_was_started(home: Path) -> None:
    db_file(home).write_bytes(b"")
    result = run_mr(home, "list")
    assert result.returncode == 0, result.stderr
    assert "was an empty file (0 bytes), so a new library was started" in result.stderr
    assert "backups" in result.stderr
    assert "was an empty file" not in run_mr(home, "list").stderr  # said once: now it is a library


@pytest.fixture
def unprivileged() -> list[str]:
    prefix = without_root_override()
    if prefix is None:
        pytest.skip("running as root without setpriv: permissions cannot be made to hold")
    return prefix


def test_an_unreadable_subfolder_is_reported_not_skipped(
    home: Path, inputs: Path, unprivileged: list[str]
) -> None:
    write(inputs / "a.txt", "A readable article about memory.\n")
    locked = inputs / "locked"
    write(locked / "b.md", "# Hidden\n\nAn article nobody can read.\n")
    locked.chmod(0)
    try:
        result = run_mr(home, "import", str(inputs), "--extractor", "placeholder", prefix=unprivileged)
    finally:
        locked.chmod(0o755)
    assert result.returncode != 0 or "1 refused" in result.stdout, result
    assert "locked: cannot read this folder (Permission denied); nothing in it was imported" in (
        result.stdout + result.stderr
    )
    assert query(home, "SELECT COUNT(*) FROM article")[0][0] == 1
    no_traceback(result)


def test_a_read_only_data_folder_can_still_be_read(home: Path, unprivileged: list[str]) -> None:
    assert (
        run_mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder").returncode
        == 0
    )
    home.chmod(0o555)
    try:
        reads = {
            cmd: run_mr(home, *cmd.split(), prefix=unprivileged)
            for cmd in ("list", "show 1", "search light", "stats", "session")
        }
        write_attempt = run_mr(
            home,
            "import",
            str(SAMPLES / "spaced-repetition.md"),
            "--extractor",
            "placeholder",
            prefix=unprivileged,
        )
    finally:
        home.chmod(0o755)
    for cmd, result in reads.items():
        assert result.returncode == 0, (cmd, result.stderr)
        no_traceback(result)
    assert "photosynthesis" in reads["list"].stdout.lower() and "light" in reads["search light"].stdout
    refused = write_attempt.stdout + write_attempt.stderr
    assert "read-only" in refused or "cannot create the lock file" in refused, refused
    assert "unable to open database file" not in refused
    no_traceback(write_attempt)


def test_a_few_bad_bytes_in_a_utf8_file_are_named_not_turned_into_mojibake(home: Path, inputs: Path) -> None:
    """The whole file was read as ISO-8859-16 ('Première' became 'PremiĂšre') without a word."""
    data = "Première ligne en français.\n\nDeuxième ligne, été.\n\nUn octet: ".encode() + b"\xe9 fin.\n"
    doc = write(inputs / "mixed.txt", data)
    result = run_mr(home, "import", str(doc), "--extractor", "placeholder")
    assert result.returncode == 0, result.stderr
    assert "1 byte not valid UTF-8 (line 5: byte 0xE9)" in result.stdout and "--encoding" in result.stdout
    texts = [row[0] for row in query(home, "SELECT text FROM paragraph ORDER BY position")]
    assert texts[0] == "Première ligne en français." and texts[-1] == "Un octet: \ufffd fin."
    (notices,) = query(home, "SELECT notices_json FROM artifact")[0]
    assert "line 5: byte 0xE9" in notices  # kept with the article
