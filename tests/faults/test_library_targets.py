"""No file the reader names is ever written over the library's own files (issue 34, item 1).

`export json|csv|anki PATH`, `export markdown DIR`, `backup FILE`, `process --out DIR` and the
app's Export dialog all write through one door (core.services.export.files.atomic_path), which
refuses the library, its -wal/-shm/-journal, the lock, the settings file and anything inside the
backup folders, by name and by identity (a symbolic or hard link to the library). Before the
rule, `export json $MEMORYRUSH_HOME/memoryrush.sqlite3` replaced the live library with rc 0 and
the next command said the database was damaged.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import confirmed_library, db_file, integrity, mr, run_mr, scalar, write

WRITERS = {
    "json": ("export", "json"),
    "csv": ("export", "csv"),
    "anki": ("export", "anki"),
    "anki-history": ("export", "anki", "--with-history"),
    "backup": ("backup",),
}


def _state(home: Path) -> tuple[int, int, int]:
    return (
        int(scalar(home, "SELECT COUNT(*) FROM article")),
        int(scalar(home, "SELECT COUNT(*) FROM card")),
        int(scalar(home, "SELECT COUNT(*) FROM unit WHERE status = 'confirmed'")),
    )


@pytest.fixture
def library(home: Path) -> tuple[Path, tuple[int, int, int]]:
    confirmed_library(home)
    (home / "backups").mkdir(exist_ok=True)
    assert mr(home, "backup").returncode == 0  # one real backup in backups/
    return home, _state(home)


def _targets(home: Path) -> dict[str, Path]:
    backup = next((home / "backups").glob("memoryrush-*.sqlite3"))
    return {
        "library": db_file(home),
        "wal": home / "memoryrush.sqlite3-wal",
        "shm": home / "memoryrush.sqlite3-shm",
        "journal": home / "memoryrush.sqlite3-journal",
        "lock": home / "memoryrush.lock",
        "config": home / "config.toml",
        "a backup": backup,
        "a new file in backups": home / "backups" / "mine.json",
        "another spelling": home / "backups" / ".." / "memoryrush.sqlite3",
    }


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_refuses_every_file_of_the_library(
    library: tuple[Path, tuple[int, int, int]], writer: str
) -> None:
    home, before = library
    backup_bytes = {p: p.read_bytes() for p in (home / "backups").iterdir()}
    config_text = (home / "config.toml").read_text(encoding="utf-8")
    for what, target in _targets(home).items():
        existed = target.exists()
        result = mr(home, *WRITERS[writer], str(target))
        assert result.returncode not in (0, 99), (writer, what, result.stdout, result.stderr)
        message = result.stdout + result.stderr
        assert "choose another file" in message and "Traceback" not in message, (writer, what, message)
        assert target.exists() == existed, (writer, what)
        assert _state(home) == before and integrity(home) == "ok", (writer, what)
    assert {p: p.read_bytes() for p in (home / "backups").iterdir()} == backup_bytes
    assert (home / "config.toml").read_text(encoding="utf-8") == config_text
    assert mr(home, "list").returncode == 0


def test_links_to_the_library_are_refused_too(
    library: tuple[Path, tuple[int, int, int]], tmp_path: Path
) -> None:
    home, before = library
    link = tmp_path / "looks-harmless.json"
    link.symlink_to(db_file(home))
    hard = tmp_path / "hard.csv"
    os.link(db_file(home), hard)
    for args in (("export", "json", str(link)), ("export", "csv", str(hard)), ("backup", str(hard))):
        result = mr(home, *args)
        assert result.returncode not in (0, 99), (args, result.stdout, result.stderr)
        assert "is your MemoryRush library" in result.stdout + result.stderr
    assert _state(home) == before and integrity(home) == "ok"


def test_markdown_and_process_refuse_the_backup_folder(
    library: tuple[Path, tuple[int, int, int]], tmp_path: Path
) -> None:
    home, before = library
    listing = sorted(p.name for p in (home / "backups").iterdir())
    result = mr(home, "export", "markdown", str(home / "backups"))
    assert result.returncode not in (0, 99) and "backup folder" in result.stdout + result.stderr
    source = write(tmp_path / "note.txt", "Photosynthesis turns light into chemical energy in plants.\n")
    result = mr(home, "process", str(source), "--out", str(home / "backups"), "--extractor", "placeholder")
    assert "backup folder" in result.stdout + result.stderr
    assert sorted(p.name for p in (home / "backups").iterdir()) == listing
    assert _state(home) == before


def test_the_real_command_onto_the_library_exits_non_zero_and_the_library_opens(
    library: tuple[Path, tuple[int, int, int]],
) -> None:
    """The attack's own reproduction, with the installed command in a separate process."""
    home, before = library
    result = run_mr(home, "export", "json", str(db_file(home)))
    assert result.returncode == 2, (result.stdout, result.stderr)  # a usage error, as click says
    assert "is your MemoryRush library" in result.stderr and "Traceback" not in result.stderr
    assert run_mr(home, "list").returncode == 0
    assert _state(home) == before


def test_backups_the_app_names_itself_still_go_to_the_backup_folder(
    library: tuple[Path, tuple[int, int, int]],
) -> None:
    home, _ = library
    count = len(list((home / "backups").glob("*.sqlite3")))
    assert mr(home, "backup").returncode == 0
    assert mr(home, "backup", str(home / "backups")).returncode == 0  # a folder: a new name in it
    assert len(list((home / "backups").glob("*.sqlite3"))) == count + 2
