"""Issue 31 for the command line: every write a CLI command makes is a typed command handled by
`services.run` (directly: the CLI has no UI thread to spare), as the app's are. The commands are
noted as `Services.run` handles them (then handled for real), and their writes checked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result
from writes_support import commands_run  # noqa: F401 (a fixture)

from tui.cli.main import cli

TEXT = (
    "Spaced repetition schedules each review just before you would forget it.\n\nSleep consolidates memory.\n"
)


def mr(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def articles(home: Path) -> int:
    con = sqlite3.connect(home / "memoryrush.sqlite3")
    try:
        return int(con.execute("SELECT COUNT(*) FROM article").fetchone()[0])
    finally:
        con.close()


def test_the_clis_writes_are_commands(
    data_home: Path,
    tmp_path: Path,
    commands_run: list[str],  # noqa: F811
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT, encoding="utf-8")
    home = str(data_home)
    assert mr("import", str(folder / "a.txt"), "--data-dir", home).exit_code == 0
    assert articles(data_home) == 1
    assert mr("reimport", "1", "--data-dir", home).exit_code == 0
    (data_home / "config.toml").write_text(f'[library]\nfollow = ["{folder}"]\n', encoding="utf-8")
    (folder / "b.txt").write_text(TEXT.replace("Sleep", "Exercise"), encoding="utf-8")
    assert mr("sync", "--data-dir", home).exit_code == 0
    assert articles(data_home) == 2
    assert mr("session", "--postpone", "3", "--data-dir", home).exit_code == 0
    optimize = mr("optimize", "--data-dir", home)
    assert optimize.exit_code == 2 and "cannot optimize yet: only 0 reviews" in optimize.output
    out = tmp_path / "library.json"
    assert mr("export", "json", str(out), "--data-dir", home).exit_code == 0
    fresh = tmp_path / "fresh"
    loaded = mr("import-library", str(out), "--data-dir", str(fresh))
    assert loaded.exit_code == 0 and "settings: written to" in loaded.output, loaded.output
    assert articles(fresh) == 2 and (fresh / "config.toml").exists()
    assert commands_run == ["Import", "Reimport", "Sync", "PostponeBacklog", "Optimize", "SaveSettings"]
