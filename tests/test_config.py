"""Config: every setting documented and range-checked; a bad file names its line and column or
its key; saving keeps the user's comments."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.domain.errors import ConfigError
from core.host.config import SETTINGS, Config, load_config, parse_config, save_config, validate_value
from tests.faults.helpers import run_mr


def test_every_setting_is_documented_and_has_a_valid_default() -> None:
    names = {f.name for f in dataclasses.fields(Config)}
    assert names == set(SETTINGS)
    defaults = Config()
    for name, setting in SETTINGS.items():
        assert setting.doc.strip().endswith((".", ")")), name
        assert setting.check(list(v) if isinstance(v := getattr(defaults, name), tuple) else v) is None, name


def test_a_missing_file_means_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope.toml") == Config()


def test_values_are_read_into_their_types() -> None:
    config = parse_config(
        "[review]\ndesired_retention = 0.85\nnew_per_day = 5\nlearning_steps = [1, 10, 60]\n"
        "[library]\nmax_file_mb = 2\n[triage]\nauto_accept_threshold = 1\n"
    )
    assert config.desired_retention == 0.85
    assert config.new_per_day == 5
    assert config.learning_steps == (1.0, 10.0, 60.0)
    assert config.max_file_mb == 2.0 and isinstance(config.max_file_mb, float)
    assert config.auto_accept_threshold == 1.0


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("[review]\ndesired_retention = 0.9\nnew_per_day = = 3\n", 3, 15),
        ("[review\n", 1, 8),
        ('[ui]\ntheme = "unterminated\n', 2, 22),
        ("[review]\nnew_per_day = 3\nnew_per_day = 4\n", 3, 16),
    ],
)
def test_bad_toml_names_line_and_column(text: str, line: int, column: int) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "/home/me/.config/memoryrush/config.toml")
    message = str(info.value)
    assert message.startswith("/home/me/.config/memoryrush/config.toml: invalid TOML")
    assert f"line {line}, column {column}" in message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[review]\ndesired_retention = 0\n", "[review] desired_retention must be from 0.7 to 0.99, got 0"),
        (
            "[review]\ndesired_retention = 1.5\n",
            "[review] desired_retention must be from 0.7 to 0.99, got 1.5",
        ),
        ("[review]\ndesired_retention = nan\n", "[review] desired_retention"),
        ('[review]\ndesired_retention = "0.9"\n', "[review] desired_retention must be a number"),
        ("[review]\nnew_per_day = 2.5\n", "[review] new_per_day must be a whole number"),
        ("[review]\nnew_per_day = true\n", "[review] new_per_day must be a whole number"),
        ("[review]\nlearning_steps = [0, 10]\n", "[review] learning_steps"),
        ("[triage]\nlow_confidence_floor = -0.1\n", "[triage] low_confidence_floor"),
        ('[extraction]\nextractor = "gpt"\n', "[extraction] extractor must be one of"),
        ("[library]\nmax_file_mb = inf\n", "[library] max_file_mb"),
        ('[ui]\ntheme = ""\n', "[ui] theme must be a non-empty string"),
        ('[extraction]\nollama_host = "http://[::1"\n', "[extraction] ollama_host is not usable"),
        ('[extraction]\nollama_host = ":99999"\n', "Port out of range"),
        ('[extraction]\nollama_host = "http://h:0"\n', "port 0"),
        ('[extraction]\nollama_host = "gpu box"\n', "not a host name"),
        ("[extraction]\nollama_deadline_s = -1\n", "[extraction] ollama_deadline_s must be from 0"),
    ],
)
def test_out_of_range_values_name_the_key(text: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "config.toml")
    assert needle in str(info.value)
    assert str(info.value).startswith("config.toml: ")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[review]\ndesired_retension = 0.9\n", "unknown setting [review] desired_retension"),
        ("[library]\ndesired_retention = 0.9\n", "unknown setting [library] desired_retention"),
        ("[reveiw]\n", "unknown section [reveiw]"),
        ("theme = 'x'\n", "'theme' must be a [section] table"),
    ],
)
def test_unknown_keys_and_sections_are_errors(text: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=r"config\.toml") as info:
        parse_config(text, "config.toml")
    assert needle in str(info.value)


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'[ui]\ntheme = "\xff\xfe"\n')
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)


def test_validate_value_is_the_settings_screen_gate() -> None:
    assert validate_value("desired_retention", 0.8) == 0.8
    assert validate_value("max_file_mb", 3) == 3.0
    with pytest.raises(ConfigError, match="desired_retention"):
        validate_value("desired_retention", 0.5)
    with pytest.raises(ConfigError, match="unknown setting"):
        validate_value("colour", "red")


def test_save_keeps_comments_and_layout(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    original = (
        "# my MemoryRush settings\n"
        "\n"
        "[review]\n"
        "# I forget fast\n"
        "desired_retention = 0.85  # keep this comment\n"
        "new_per_day = 20\n"
        "\n"
        "[ui]\n"
        'theme = "memoryrush-dark"  # the default, written out on purpose\n'
    )
    path.write_text(original, encoding="utf-8")
    config = dataclasses.replace(load_config(path), desired_retention=0.93, leech_threshold=5)
    save_config(path, config)
    text = path.read_text(encoding="utf-8")
    for keep in (
        "# my MemoryRush settings",
        "# I forget fast",
        "# keep this comment",
        "# the default, written out on purpose",
    ):
        assert keep in text
    assert "desired_retention = 0.93" in text
    assert "new_per_day = 20" in text  # a default the user wrote stays written
    assert "leech_threshold = 5" in text
    assert "max_file_mb" not in text  # untouched defaults are not added
    assert load_config(path) == config
    assert not path.with_suffix(".toml.tmp").exists()


def test_save_creates_the_file_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    config = Config(learning_steps=(2.0, 20.0), auto_accept_threshold=0.8, ollama_allow_remote=True)
    save_config(path, config)
    assert load_config(path) == config


def test_save_refuses_to_overwrite_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[review\n# precious notes\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="fix or remove it"):
        save_config(path, Config(new_per_day=3))
    assert path.read_text(encoding="utf-8") == "[review\n# precious notes\n"


@pytest.mark.parametrize("command", [["import", "x.txt"]])
def test_cli_with_a_bad_config_exits_2_with_the_message(data_home: Path, command: list[str]) -> None:
    data_home.mkdir(parents=True)
    (data_home / "config.toml").write_text("[review]\ndesired_retention = 1.5\n", encoding="utf-8")
    result = run_mr(data_home, *command)
    assert result.returncode == 2
    assert "config.toml" in result.stderr
    assert "desired_retention must be from 0.7 to 0.99, got 1.5" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not (data_home / "memoryrush.sqlite3").exists()


def test_cli_with_bad_toml_names_line_and_column(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    (data_home / "config.toml").write_text("[review]\nnew_per_day = = 3\n", encoding="utf-8")
    result = run_mr(data_home, "list")
    assert result.returncode == 2
    assert "line 2, column 15" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_value_names_its_line_too() -> None:
    text = "# my settings\n[review]\nnew_per_day = 20\n\n[extraction]\n  ollama_host = 'http://[::1'\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, "config.toml")
    assert str(info.value).endswith("(line 6)")


def test_good_hosts_still_pass() -> None:
    for host in (
        "",
        "localhost",
        ":5000",
        "[::1]:7000",
        "http://127.0.0.2:8080/",
        "https://ollama.example.com",
    ):
        assert parse_config(f'[extraction]\nollama_host = "{host}"\n').ollama_host == host
