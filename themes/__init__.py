"""Themes are data: TOML files here and in the user's config dir, registered as Textual themes.

A theme file holds the fields of `textual.theme.Theme` (name, dark, primary, secondary, accent,
warning, error, success, foreground, background, surface, panel, boost, luminosity_spread,
text_alpha) and an optional `[variables]` table. User files in `core.host.paths.user_themes_dir()`
override shipped ones of the same name.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from textual.app import App
from textual.theme import Theme

HERE = Path(__file__).resolve().parent
DEFAULT_THEME = "memoryrush-dark"
SHIPPED = ("memoryrush-dark", "memoryrush-light", "memoryrush-high-contrast")
_FIELDS = {f.name for f in fields(Theme)}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class ThemeFileError(ValueError):
    """A theme file could not be read; the message names the file and the problem."""


def load_theme_file(path: Path) -> Theme:
    """Read one TOML theme file into a Theme (raises ThemeFileError with the file name)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path}: cannot read theme: {exc}") from None
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ThemeFileError(f"{path}: unknown theme keys {', '.join(unknown)}")
    if not isinstance(data.get("name"), str) or not isinstance(data.get("primary"), str):
        raise ThemeFileError(f"{path}: a theme needs a `name` and a `primary` colour")
    if not _NAME.fullmatch(data["name"]):
        # The name becomes a CSS class and a command-palette entry, which Textual's theme
        # picker reads as markup: "[@click=app.quit]" in a downloaded theme would be obeyed.
        raise ThemeFileError(f"{path}: a theme name is letters, digits, '-', '_' and '.' only")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(f"{path}: [variables] must map names to colour strings")
    try:
        theme = Theme(**data)
        theme.to_color_system()  # fails early on a bad colour
    except Exception as exc:
        raise ThemeFileError(f"{path}: invalid theme: {exc}") from None
    return theme


def theme_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.toml")) if directory.is_dir() else []


def load_themes(user_dir: Path | None = None) -> tuple[list[Theme], list[str]]:
    """Shipped themes, then the user's (same name overrides). Returns (themes, error messages)."""
    found: dict[str, Theme] = {}
    errors: list[str] = []
    for path in [*theme_files(HERE), *(theme_files(user_dir) if user_dir else [])]:
        try:
            theme = load_theme_file(path)
        except ThemeFileError as exc:
            errors.append(str(exc))
            continue
        found[theme.name] = theme
    return list(found.values()), errors


def register_themes(app: App[Any], user_dir: Path | None = None) -> list[str]:
    """Register every theme with the app; returns errors to show as notices."""
    themes, errors = load_themes(user_dir)
    for theme in themes:
        app.register_theme(theme)
    return errors


__all__ = ["DEFAULT_THEME", "SHIPPED", "ThemeFileError", "load_theme_file", "load_themes", "register_themes"]
