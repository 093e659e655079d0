"""Settings: documented, validated, stored as TOML in the config dir.

Every setting is a `Setting` with a docstring-like `doc` and a validated range. A bad file
stops start-up with a `ConfigError` naming the line/column (syntax) or the key (value).
Saving keeps the user's comments (tomlkit round-trip).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

from core.domain.errors import ConfigError
from core.text.locations import host_url


class Setting(NamedTuple):
    """One setting's row of SETTINGS. A NamedTuple: this module is loaded before the first frame,
    and a frozen dataclass compiles its methods at import (3M instructions of the cold start)."""

    section: str
    key: str
    doc: str
    check: Callable[[Any], str | None]  # returns an error message or None


def _num(lo: float, hi: float, *, integer: bool = False) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok_type = isinstance(v, int) if integer else isinstance(v, int | float)
        if isinstance(v, bool) or not ok_type:
            return f"must be {'a whole number' if integer else 'a number'} from {lo} to {hi}"
        if not lo <= v <= hi:
            return f"must be from {lo} to {hi}, got {v}"
        return None

    return check


def _choice(*options: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        return None if v in options else f"must be one of {', '.join(options)}, got {v!r}"

    return check


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) and v.strip() else "must be a non-empty string"


def _any_text(v: Any) -> str | None:
    return None if isinstance(v, str) else "must be a string"


def _host(v: Any) -> str | None:
    if not isinstance(v, str):
        return "must be a string"
    if not v.strip():
        return None  # empty: $OLLAMA_HOST, else the local default
    try:
        host_url(v)
    except ValueError as exc:
        return f"is not usable: {exc} (e.g. http://127.0.0.1:11434)"
    return None


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _folders(v: Any) -> str | None:
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        return 'must be a list of folder paths, e.g. ["~/notes", "/srv/papers"]'
    if len(v) > MAX_FOLLOWED:
        return f"must list at most {MAX_FOLLOWED} folders, got {len(v)}"
    if any(c < " " for x in v for c in x):
        return "must not contain control characters"
    if len({x.strip() for x in v}) != len(v):
        return "lists a folder twice"
    return None


def _steps(v: Any) -> str | None:
    if not isinstance(v, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) and 0 < x <= 1440 * 7 for x in v
    ):
        return "must be a list of minutes, each above 0 and at most 10080, e.g. [1, 10]"
    return None


MAX_FOLLOWED = 100


@dataclass(frozen=True, slots=True)
class Config:
    # [library]
    max_file_mb: float = 10.0
    follow: tuple[str, ...] = ()  # folders `memoryrush sync` re-reads
    # [extraction]
    extractor: str = "offline"
    ollama_host: str = ""
    ollama_model: str = "qwen2.5:7b-instruct"
    ollama_timeout_s: float = 120.0
    ollama_deadline_s: float = 0.0  # 0 = five times ollama_timeout_s
    ollama_allow_remote: bool = False
    embed_model: str = ""
    # [review]
    desired_retention: float = 0.90
    pinned_retention: float = 0.97
    new_per_day: int = 20
    max_reviews_per_day: int = 200
    learning_steps: tuple[float, ...] = (1.0, 10.0)
    relearning_steps: tuple[float, ...] = (10.0,)
    day_starts_at_hour: int = 4
    leech_threshold: int = 8
    # [triage]
    auto_accept_threshold: float = 0.0  # 0 = off: every proposal waits for the user
    low_confidence_floor: float = 0.0  # 0 = off
    # [ui]
    theme: str = "memoryrush-dark"
    # [backup]
    backup_auto: str = "daily"
    backup_keep: int = 10
    backup_folder: str = ""
    # [export]
    export_folder: str = ""  # the last folder an export went to (the Export dialog sets it)
    # [agents]
    mcp_allow_propose: bool = False


@dataclass(slots=True)
class Settings:
    """The configuration in use, one object shared by every service of an open library: what
    is set here (the Settings screen saves, then sets it) is what each service reads next."""

    current: Config


# One row per setting: section, key, the documentation shown in Settings, and its check.
# fmt: off
SETTINGS: dict[str, Setting] = {
    "max_file_mb": Setting("library", "max_file_mb", "Largest file import accepts, in MB.", _num(0.001, 4096)),
    "follow": Setting("library", "follow", "Folders `memoryrush sync` re-reads (~ allowed): new files imported, changed ones updated in place, deleted ones flagged.", _folders),
    "extractor": Setting("extraction", "extractor", "Default extractor: offline (no model) or ollama.", _choice("offline", "ollama", "placeholder")),
    "ollama_host": Setting("extraction", "ollama_host", "Ollama URL; empty = $OLLAMA_HOST, else http://127.0.0.1:11434.", _host),
    "ollama_model": Setting("extraction", "ollama_model", "Ollama model used for extraction (ollama pull it first).", _text),
    "ollama_timeout_s": Setting("extraction", "ollama_timeout_s", "Seconds without a word from Ollama before a request is abandoned (offline fallback).", _num(1, 3600)),
    "ollama_deadline_s": Setting("extraction", "ollama_deadline_s", "Most seconds one Ollama request may take in all, however steadily it keeps sending (0 = five times ollama_timeout_s).", _num(0, 86400)),
    "ollama_allow_remote": Setting("extraction", "ollama_allow_remote", "Allow a non-loopback Ollama host (your text leaves this machine).", _bool),
    "embed_model": Setting("extraction", "embed_model", "Ollama embedding model for semantic search rerank; empty = lexical only.", _any_text),
    "desired_retention": Setting("review", "desired_retention", "Share of cards you want to recall when due (FSRS).", _num(0.70, 0.99)),
    "pinned_retention": Setting("review", "pinned_retention", "Retention target for pinned units.", _num(0.70, 0.995)),
    "new_per_day": Setting("review", "new_per_day", "New cards introduced per day.", _num(0, 9999, integer=True)),
    "max_reviews_per_day": Setting("review", "max_reviews_per_day", "Most review cards per day.", _num(0, 99999, integer=True)),
    "learning_steps": Setting("review", "learning_steps", "Learning steps in minutes.", _steps),
    "relearning_steps": Setting("review", "relearning_steps", "Relearning steps in minutes.", _steps),
    "day_starts_at_hour": Setting("review", "day_starts_at_hour", "Local hour at which a new review day starts.", _num(0, 23, integer=True)),
    "leech_threshold": Setting("review", "leech_threshold", "Lapses after which a card is a leech (suspended, tagged).", _num(1, 999, integer=True)),
    "auto_accept_threshold": Setting("triage", "auto_accept_threshold", "Valid proposals at or above this confidence are accepted automatically (0 = never).", _num(0.0, 1.0)),
    "low_confidence_floor": Setting("triage", "low_confidence_floor", "Proposals below this confidence go to the low-confidence list (0 = off).", _num(0.0, 1.0)),
    "theme": Setting("ui", "theme", "Theme name (see themes/ and your config dir's themes/); the palette's Theme choice is saved here, and the app starts in it.", _text),
    "backup_auto": Setting("backup", "auto", "Automatic backups when the app starts: daily (at most one a day), startup (every start) or off.", _choice("daily", "startup", "off")),
    "backup_keep": Setting("backup", "keep", "Automatic backups kept (the oldest go first; backups you make are never removed).", _num(1, 999, integer=True)),
    "backup_folder": Setting("backup", "folder", "Folder for backups; empty = backups/ in the data folder.", _any_text),
    "export_folder": Setting("export", "folder", "Folder the Export dialog offers: the last one an export went to (the dialog sets it); empty = Downloads, else home.", _any_text),
    "mcp_allow_propose": Setting("agents", "allow_propose", "Let agents (memoryrush mcp) propose units into Triage; off = read-only.", _bool),
}
# fmt: on
_TUPLE_FIELDS: dict[str, Callable[[Any], Any]] = {
    "learning_steps": float,
    "relearning_steps": float,
    "follow": lambda x: str(x).strip(),
}


def validate_value(name: str, value: Any) -> Any:
    """Check one setting; returns the value in its stored type or raises ConfigError."""
    setting = SETTINGS.get(name)
    if setting is None:
        raise ConfigError(f"unknown setting {name!r}")
    error = setting.check(value)
    if error:
        raise ConfigError(f"[{setting.section}] {setting.key} {error}")
    if name in _TUPLE_FIELDS:
        return tuple(_TUPLE_FIELDS[name](x) for x in value)
    if isinstance(getattr(Config(), name), float) and isinstance(value, int):
        return float(value)
    return value


def parse_config(text: str, source: str = "config.toml") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # message carries "(at line L, column C)"
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None
    by_key = {(s.section, s.key): name for name, s in SETTINGS.items()}
    sections = {s.section for s in SETTINGS.values()}
    values: dict[str, Any] = {}
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {section!r} must be a [section] table")
        if section not in sections:
            raise ConfigError(f"{source}: unknown section [{section}]; known: {', '.join(sorted(sections))}")
        for key, value in table.items():
            name = by_key.get((section, key))
            if name is None:
                raise ConfigError(f"{source}: unknown setting [{section}] {key}")
            try:
                values[name] = validate_value(name, value)
            except ConfigError as exc:
                raise ConfigError(f"{source}: {exc}{_line_of(text, section, key)}") from None
    return replace(Config(), **values)


def _line_of(text: str, section: str, key: str) -> str:
    """ " (line N)" where `key` is set inside [section] (TOML values carry no position)."""
    current = ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            current = stripped.strip("[]").strip()
        elif current == section and stripped.split("=", 1)[0].strip().strip("\"'") == key:
            return f" (line {number})"
    return ""


def load_config(path: Path) -> Config:
    """Read the config file; a missing file means defaults."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc}") from None
    return parse_config(text, str(path))


def save_config(path: Path, config: Config) -> None:
    """Write the settings, keeping the user's comments and layout (tomlkit round-trip).

    A key already in the file is updated in place (even back to its default); a key not in
    the file is added only when it differs from the default. Written atomically.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
    except (OSError, UnicodeDecodeError, TOMLKitError) as exc:
        raise ConfigError(f"{path}: cannot update the config file ({exc}); fix or remove it") from None
    defaults = Config()
    for f in fields(Config):
        setting = SETTINGS[f.name]
        value = getattr(config, f.name)
        stored = list(value) if isinstance(value, tuple) else value
        table = doc.get(setting.section)
        if table is not None and setting.key in table:
            table[setting.key] = stored
            continue
        if value == getattr(defaults, f.name):
            continue
        if table is None:
            table = tomlkit.table()
            doc[setting.section] = table
        table[setting.key] = stored
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
    tmp.replace(path)
