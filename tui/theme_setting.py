"""The theme in use is the `theme` setting: a theme chosen anywhere (the palette's Theme list,
Settings) is saved in config.toml, and the next start opens in it (tui.app applies it before the
first frame). Issue 32: the palette's choice was lost on restart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.theme import Theme

from core.domain.errors import ConfigError
from core.host import paths

if TYPE_CHECKING:
    from textual.app import App

    from core.services.bootstrap import Services


def keep_theme(app: App[object], services: Services, theme: Theme) -> None:
    """Save `theme` as the setting (validated as every setting is); a file that cannot be
    written is said, and the theme stays in use for this run."""
    if theme.name == services.config.theme:
        return  # (Settings saved it already)
    try:
        services.preferences.change(theme=theme.name)
    except (OSError, ConfigError) as exc:
        from tui.safe import notify  # (not needed for the first frame)

        notify(app, f"Theme not kept for the next start: {paths.config_path()}: {exc}", severity="warning")
