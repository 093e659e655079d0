"""Where MemoryRush keeps its files. The one place paths are decided.

`MEMORYRUSH_HOME` (or `--data-dir`, which sets it) puts data *and* config under one folder,
which is what tests and `--demo` use. Otherwise the platform's data and config dirs.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import platformdirs

APP = "memoryrush"
ENV_HOME = "MEMORYRUSH_HOME"


def home_override() -> Path | None:
    value = os.environ.get(ENV_HOME, "").strip()
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    home = home_override()
    return home if home is not None else Path(platformdirs.user_data_dir(APP, appauthor=False))


def config_dir() -> Path:
    home = home_override()
    return home if home is not None else Path(platformdirs.user_config_dir(APP, appauthor=False))


def database_path() -> Path:
    return data_dir() / "memoryrush.sqlite3"


def config_path() -> Path:
    return config_dir() / "config.toml"


def lock_path() -> Path:
    return data_dir() / "memoryrush.lock"


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def backups_dir() -> Path:
    return data_dir() / "backups"


def screenshots_dir() -> Path:
    """Where a screenshot goes: the Downloads folder if there is one, else the home folder, else
    the current one, else the temporary folder; the first that exists and can be written to."""
    return user_files_dir()


def exports_dir(last: str = "") -> Path:
    """The folder the Export dialog offers: `last` (the last one an export went to, the
    config's [export] folder) while it exists and can be written to, else where a screenshot
    goes (Downloads, else home)."""
    return user_files_dir(*([Path(last).expanduser()] if last.strip() else []))


def user_files_dir(*first: Path) -> Path:
    """The first of `first`, Downloads, home and the current folder that exists and can be
    written to; else the temporary folder."""
    candidates = [*first, Path(platformdirs.user_downloads_dir()), Path.home(), Path.cwd()]
    for folder in candidates:
        if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return Path(tempfile.gettempdir())
