"""The reader's settings: saving Settings, one setting changed elsewhere (Schedule's retention,
the palette's theme, the Export dialog's folder). config.toml is written, and every service
uses the new settings at once (core/services/preferences.py).

Not SQLite, but a write all the same: a slow or full disk must not hold a frame, so these run
in a worker as every other command does. A file that cannot be written (or a value refused) is
no failure of the app: the result says it (`NotSaved`), and the screen says it as it always did.

Saves run one at a time (`SAVING`): each is a read-modify-write of the settings in use, and two
themes picked one after the other in the palette must not be saved the wrong way round.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from core.domain.errors import ConfigError
from core.host.config import Config
from core.services.commands import Command

if TYPE_CHECKING:
    from core.services.bootstrap import Services
    from core.services.preferences import Preferences

SAVING = threading.Lock()


@dataclass(frozen=True, slots=True)
class NotSaved:
    """config.toml was not written (`why`: the OS's or the validator's sentence); the settings
    in use are as they were."""

    file: Path
    why: str


@dataclass(frozen=True, slots=True)
class SaveSettings(Command["Config | NotSaved"]):
    """Settings' ctrl+s: the settings the form `changed`, taken from `config` onto those in use
    when it runs (a theme or a retention saved elsewhere meanwhile, queued before it, stays),
    written to config.toml and in use from now on; none named: the whole `config` (a library
    file's settings)."""

    config: Config
    changed: tuple[str, ...] = ()
    what: ClassVar[str] = "saving the settings"

    def handle(self, services: Services) -> Config | NotSaved:
        if not self.changed:
            return _saved(services.preferences, lambda preferences: preferences.adopt(self.config))
        values = {name: getattr(self.config, name) for name in self.changed}
        return _saved(services.preferences, lambda preferences: preferences.change(**values))


@dataclass(frozen=True, slots=True)
class ChangeSetting(Command["Config | NotSaved"]):
    """One setting (`name`, validated as every setting is) changed, saved and in use."""

    name: str
    value: object
    what: ClassVar[str] = "saving the setting"

    def handle(self, services: Services) -> Config | NotSaved:
        return _saved(services.preferences, lambda preferences: preferences.change(**{self.name: self.value}))


def _saved(preferences: Preferences, save: Callable[[Preferences], Config]) -> Config | NotSaved:
    """`save(preferences)`, one save at a time; the file not written (or a value refused): why."""
    try:
        with SAVING:
            return save(preferences)
    except (OSError, ConfigError) as exc:
        return NotSaved(preferences.file, str(exc))
