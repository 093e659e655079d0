"""`memoryrush reimport` and `memoryrush sync` as a person uses them (click's runner in-process)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from tui.cli.main import cli

FIRST = (
    "Spaced repetition schedules each review just before you would forget it.\n\nSleep consolidates memory.\n"
)
SECOND = (
    "Spaced repetition schedules each review just before you would forget it.\n\nNaps help a little too.\n"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def follow(home: Path, *folders: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    listed = ", ".join(f'"{f}"' for f in folders)
    (home / "config.toml").write_text(f"[library]\nfollow = [{listed}]\n", encoding="utf-8")


def column(home: Path, sql: str) -> list[object]:
    con = sqlite3.connect(home / "memoryrush.sqlite3")
    try:
        return [r[0] for r in con.execute(sql)]
    finally:
        con.close()


def test_reimport_updates_the_article_in_place(data_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(FIRST, encoding="utf-8")
    assert run("import", str(path), "--extractor", "placeholder").exit_code == 0
    same = run("reimport", "notes", "--extractor", "placeholder")
    assert same.exit_code == 0 and "unchanged since it was read" in same.stdout
    path.write_text(SECOND, encoding="utf-8")
    changed = run("reimport", "1", "--extractor", "placeholder")
    assert changed.exit_code == 0, changed.output
    assert "updated  " in changed.stdout and "1 of 2 units found again" in changed.stdout
    assert "1 marked source changed" in changed.stdout
    shown = run("show", "1")
    assert "(source changed: keep or retire it)" in shown.stdout
    assert column(data_home, "SELECT COUNT(*) FROM article") == [1]


def test_reimport_of_an_unknown_or_vanished_article(data_home: Path, tmp_path: Path) -> None:
    unknown = run("reimport", "nothing-like-it")
    assert unknown.exit_code == 1 and "no article matches" in unknown.stderr
    path = tmp_path / "notes.txt"
    path.write_text(FIRST, encoding="utf-8")
    run("import", str(path), "--extractor", "placeholder")
    path.unlink()
    gone = run("reimport", "1")
    assert gone.exit_code == 1 and "the source file is gone" in gone.stderr


def test_sync_imports_new_updates_changed_and_flags_deleted(data_home: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text(FIRST, encoding="utf-8")
    (notes / "b.md").write_text("# B\n\nBees dance to show where the flowers are.\n", encoding="utf-8")
    (notes / "skip.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    follow(data_home, notes)
    first = run("sync", "--extractor", "placeholder")
    assert first.exit_code == 0, first.output
    # the image is listed with its reason and counted apart: it is not a file synced
    assert "2 files: 2 imported, 0 updated, 0 refused; 0 sources missing; 1 skipped" in first.stdout
    assert f"skipped  {notes / 'skip.png'}: unsupported file type .png" in first.stderr

    (notes / "a.txt").write_text(SECOND, encoding="utf-8")
    (notes / "b.md").unlink()
    (notes / "c.html").write_text(
        "<html><head><title>C</title></head><body><p>Cats sleep most of the day.</p></body></html>",
        encoding="utf-8",
    )
    second = run("sync", "--extractor", "placeholder")
    assert second.exit_code == 0, second.output
    assert "2 files: 1 imported, 1 updated, 0 refused; 1 source missing; 1 skipped" in second.stdout
    assert f"gone     {notes / 'b.md'}" in second.stdout
    listed = run("list").stdout
    assert "B  [source missing]" in listed and listed.count("[source missing]") == 1
    assert column(data_home, "SELECT COUNT(*) FROM unit") == [5]  # 2 + 1 + 1 new in a + 1 in c: none deleted

    (notes / "b.md").write_text("# B\n\nBees dance to show where the flowers are.\n", encoding="utf-8")
    third = run("sync", "--extractor", "placeholder")
    assert f"back     {notes / 'b.md'}" in third.stdout
    assert "[source missing]" not in run("list").stdout


def test_sync_without_followed_folders_says_how_to_add_them(data_home: Path) -> None:
    result = run("sync")
    assert result.exit_code == 2
    assert '[library] follow = ["~/notes"]' in result.stderr


def test_a_followed_folder_that_is_not_there_flags_nothing(data_home: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text(FIRST, encoding="utf-8")
    follow(data_home, notes)
    run("sync", "--extractor", "placeholder")
    (notes / "a.txt").unlink()
    notes.rmdir()  # an unmounted drive looks like this
    result = run("sync")
    assert result.exit_code == 1
    assert f"missing  {notes}: followed folder not found" in result.stderr
    assert "[source missing]" not in run("list").stdout


def test_a_bad_follow_setting_stops_with_its_key(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    (data_home / "config.toml").write_text('[library]\nfollow = "~/notes"\n', encoding="utf-8")
    result = run("sync")
    assert result.exit_code == 2 and "[library] follow must be a list of folder paths" in result.stderr
