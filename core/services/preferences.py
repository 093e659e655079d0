"""The reader's settings as a use case: changed, validated, saved to config.toml and in use for
every service at once. The one way the app and the CLI change a setting (Settings, Schedule's
retention, the palette's theme, the Export dialog's folder, a library file's settings).

    svc.preferences.change(desired_retention=0.85)   -> the Config in use now (ConfigError, OSError)
    svc.preferences.adopt(config)                    -> the same for a whole Config
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core.host import paths
from core.host.config import Config, Settings, save_config, validate_value


@dataclass
class Preferences:
    settings: Settings

    @property
    def file(self) -> Path:
        return paths.config_path()

    def change(self, **values: Any) -> Config:
        """The settings with `values` changed, each validated (ConfigError says which and why),
        written to config.toml (OSError when it cannot be) and in use from now on."""
        changed = replace(self.settings.current, **{k: validate_value(k, v) for k, v in values.items()})
        if changed == self.settings.current:
            return changed  # (already so: nothing to write)
        return self.adopt(changed)

    def adopt(self, config: Config) -> Config:
        """`config` written to config.toml and in use from now on (what Settings saves)."""
        save_config(self.file, config)
        self.settings.current = config
        return config

    def changed(self, new: Config) -> list[str]:
        """The settings `new` has otherwise than those in use."""
        old = self.settings.current
        return [name for name in Config.__dataclass_fields__ if getattr(new, name) != getattr(old, name)]
