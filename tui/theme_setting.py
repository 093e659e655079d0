"""The theme in use is the `theme` setting: a theme chosen anywhere (the palette's Theme list,
Settings) is saved in config.toml, and the next start opens in it (tui.app applies it before the
first frame). Issue 32: the palette's choice was lost on restart. The save is the `ChangeSetting`
command in a worker (issue 31): a slow disk never holds the frame that shows the new theme."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.theme import Theme

from core.services.commands.settings import ChangeSetting, NotSaved

if TYPE_CHECKING:
    from textual.app import App

    from core.host.config import Config


class ThemeKept(Message):
    """The theme's save came back (`result`: the settings now, or why not). Handled by the
    app's `on_theme_kept` (`said_kept`)."""

    def __init__(self, result: Config | NotSaved) -> None:
        super().__init__()
        self.result = result


def keep_theme(app: App[object], theme: Theme) -> None:
    """Save `theme` as the setting (validated as every setting is), in a worker; a file that
    cannot be written is said (`said_kept`), and the theme stays in use for this run. Whether it
    is the setting already is asked when the save runs, after the saves queued before it (a
    theme picked and then the one before it picked again is the one kept)."""
    from tui import runner  # (not needed for the first frame)

    runner.run(app, ChangeSetting("theme", theme.name), ThemeKept, group="settings")


def said_kept(app: App[object], message: ThemeKept) -> None:
    """A theme not kept for the next start is said; a kept one needs no word."""
    if isinstance(message.result, NotSaved):
        from tui.safe import notify

        where = f"{message.result.file}: {message.result.why}"
        notify(app, f"Theme not kept for the next start: {where}", severity="warning")
