"""Settings: retention, daily limits, triage bands, extractor and theme — validated, then saved
by the `SaveSettings` command in a worker (config.toml written off the UI thread: a slow disk
never holds a frame); ctrl+s waits while a save is on its way."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Label, Select, Static

from core.domain.errors import ConfigError
from core.host import paths
from core.host.config import SETTINGS, Config, validate_value
from core.services.commands.settings import NotSaved, SaveSettings
from tui import runner
from tui.messages import BackupProgressed
from tui.safe import content, notify
from tui.screens.base import BaseScreen
from tui.screens.reschedule import RescheduleOffer
from tui.widgets.guarded import SafeInput
from tui.widgets.key_bar import KeyBar
from tui.widgets.title_bar import TitleBar

FIELDS = (
    "desired_retention",
    "new_per_day",
    "max_reviews_per_day",
    "auto_accept_threshold",
    "low_confidence_floor",
    "extractor",
    "ollama_model",
    "ollama_host",
    "theme",
    "backup_auto",
    "backup_keep",
    "backup_folder",
    "mcp_allow_propose",
)
CHOICES = {
    "extractor": ("offline", "ollama"),
    "backup_auto": ("daily", "startup", "off"),
    "mcp_allow_propose": ("false", "true"),
}


def parse(name: str, raw: str) -> Any:
    """The typed value of a field as typed by the user (validate_value checks the range)."""
    default = getattr(Config(), name)
    if isinstance(default, bool):
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            return raw
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            return raw
    return raw.strip()


class SettingsScreen(BaseScreen):
    """One row per setting with its documentation; ctrl+s validates and saves."""

    HELP_NAME = "Settings"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("ctrl+b", "app.backup", "Back up now", id="settings.backup"),
    ]

    class Saved(Message):
        """`SaveSettings` came back: the settings now (`result`, replacing `old`; `changed` the
        fields saved), or why they were not saved. Handled by `on_settings_screen_saved`."""

        def __init__(self, old: Config, changed: list[str], result: Config | NotSaved) -> None:
            super().__init__()
            self.old = old
            self.changed = changed
            self.result = result

    def __init__(self) -> None:
        super().__init__()
        self.saving = False  # a save is on its way (ctrl+s waits for it)
        self.reschedule = RescheduleOffer(self)  # a new retention saved: the workload, then re-time if asked

    def compose(self) -> ComposeResult:
        config = self.services.config
        yield TitleBar()
        with VerticalScroll(id="settings-body"):
            for name in FIELDS:
                setting = SETTINGS[name]
                with Horizontal(classes="setting-row"):
                    yield Label(Content(name.replace("_", " ")), classes="setting-name")
                    value = getattr(config, name)
                    if name == "theme":
                        themes = sorted(self.app.available_themes)
                        yield Select(
                            [(content(t, single_line=True), t) for t in themes],
                            value=value if value in themes else themes[0],
                            allow_blank=False,
                            id=f"set-{name}",
                        )
                    elif name in CHOICES:
                        yield Select(
                            [(Content(c), c) for c in CHOICES[name]],
                            value=str(value).lower() if isinstance(value, bool) else value,
                            allow_blank=False,
                            id=f"set-{name}",
                        )
                    else:
                        yield SafeInput(str(value), id=f"set-{name}")
                yield Static(Content(setting.doc), classes="setting-doc")
            yield Static(id="settings-errors")
            yield Static(Content("ctrl+b backs up the library now"), id="settings-backup")
        yield KeyBar()

    def on_mount(self) -> None:
        # Typing goes to the first field at once (nothing focused, keys typed were lost).
        self.query_one(f"#set-{FIELDS[0]}", Input).focus()

    def _values(self) -> tuple[dict[str, Any], list[str]]:
        values: dict[str, Any] = {}
        errors: list[str] = []
        for name in FIELDS:
            widget = self.query_one(f"#set-{name}")
            raw = widget.value if isinstance(widget, Select) else self.query_one(f"#set-{name}", Input).value
            try:
                values[name] = validate_value(name, parse(name, str(raw)))
            except ConfigError as exc:
                errors.append(str(exc))
        if "theme" in values and values["theme"] not in self.app.available_themes:
            errors.append(f"[ui] theme: no theme named {values['theme']!r}")
        return values, errors

    def on_backup_progressed(self, message: BackupProgressed) -> None:
        share = message.done / message.total if message.total else 1.0
        text = "Backed up." if share >= 1 else f"Backing up … {share:.0%}"
        self.query_one("#settings-backup", Static).update(Content(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save" and self.saving:
            return None
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        return "Saving the settings …" if action == "save" else None

    def action_save(self) -> None:
        values, errors = self._values()
        box = self.query_one("#settings-errors", Static)
        if errors:
            box.update(Content("\n").join(content(e) for e in errors))
            box.scroll_visible()
            notify(self.app, f"Not saved: {errors[0]}", severity="error")
            return
        old = self.services.config
        config = replace(old, **values)
        changed = [name for name in self.services.preferences.changed(config) if name in FIELDS]
        if not changed:
            box.update(Content("Nothing changed."))
            notify(self.app, "Nothing changed: every setting is as it was")
            return
        # saved, and in use by every service at once (extractor choice included)
        self._saving(True)
        saved = partial(self.Saved, old, changed)
        runner.run(
            self,
            SaveSettings(config, tuple(changed)),
            saved,
            group="settings",
            failed=lambda _: self._saving(False),
        )

    def _saving(self, on: bool) -> None:
        self.saving = on
        self.refresh_bindings()

    def on_settings_screen_saved(self, message: Saved) -> None:
        self._saving(False)
        config, changed = message.result, message.changed
        if isinstance(config, NotSaved):
            notify(self.app, f"Not saved: could not write {config.file}: {config.why}", severity="error")
            return
        self.app.theme = config.theme
        what = ", ".join(f"{name.replace('_', ' ')} {getattr(config, name)}" for name in changed)
        self.query_one("#settings-errors", Static).update(content(f"Saved: {what}."))
        if "desired_retention" in changed:  # the cards scheduled for the old one: offer to re-time them
            self.reschedule.offer(message.old.desired_retention, config.desired_retention)
        notify(self.app, f"Settings saved ({what}) to {paths.config_path()}")

    def on_reschedule_offer_workload_worked_out(self, message: RescheduleOffer.WorkloadWorkedOut) -> None:
        self.reschedule.ask(message)

    def on_reschedule_offer_rescheduled(self, message: RescheduleOffer.Rescheduled) -> None:
        self.reschedule.done(message)
