"""The settings commands, run in the order they were asked (as the app's writer thread runs
them): Settings' save takes the settings its form changed, not the whole form, onto those in use
when it runs, so a theme or a retention saved just before it stays."""

from __future__ import annotations

from dataclasses import replace

from core.host import paths
from core.host.config import load_config
from core.services.bootstrap import Services
from core.services.commands.settings import ChangeSetting, SaveSettings

THEME = "memoryrush-high-contrast"


def test_settings_save_keeps_a_theme_saved_before_it_ran(services: Services) -> None:
    form = replace(services.config, desired_retention=0.85)  # the form, opened before the theme pick
    services.run(ChangeSetting("theme", THEME))  # the palette's pick, queued first
    services.run(SaveSettings(form, ("desired_retention",)))
    saved = load_config(paths.config_path())
    assert saved.theme == THEME and saved.desired_retention == 0.85
    assert services.config.theme == THEME and services.config.desired_retention == 0.85


def test_a_setting_already_so_writes_nothing(services: Services) -> None:
    services.run(ChangeSetting("desired_retention", 0.85))
    written = paths.config_path().stat().st_mtime_ns
    paths.config_path().write_text(paths.config_path().read_text(encoding="utf-8"), encoding="utf-8")
    before = paths.config_path().stat().st_mtime_ns
    services.run(ChangeSetting("desired_retention", 0.85))
    assert paths.config_path().stat().st_mtime_ns == before and before >= written
