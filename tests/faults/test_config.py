"""Malformed config: start-up refused with the key or the line named; nothing is opened or written."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import cli_argv, db_file, mr, mr_env, write

CASES = {
    "bad_toml": ("[review]\ndesired_retention = 0.9\nnew_per_day = = 3\n", ["line 3", "invalid toml"]),
    "unclosed_table": ("[review\ndesired_retention = 0.9\n", ["line 1"]),
    "retention_zero": ("[review]\ndesired_retention = 0\n", ["desired_retention", "0.7", "0.99"]),
    "retention_one_and_a_half": ("[review]\ndesired_retention = 1.5\n", ["desired_retention", "1.5"]),
    "retention_text": ('[review]\ndesired_retention = "high"\n', ["desired_retention"]),
    "unknown_key": ("[review]\ndesired_retension = 0.9\n", ["desired_retension"]),
    "not_utf8": (b'[ui]\ntheme = "\xff\xfe"\n', ["config"]),
    # a traceback, then a silent port 80, before ollama_host was checked at load
    "host_bracket": ('[extraction]\nollama_host = "http://[::1"\n', ["ollama_host", "line 2", "ipv6"]),
    "host_port": ('# mine\n[extraction]\nollama_host = ":99999"\n', ["ollama_host", "line 3", "port"]),
    "host_scheme": ('[extraction]\nollama_host = "ftp://box"\n', ["ollama_host", "http://"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", [["list"], ["import", "IMPORT"]])
def test_bad_config_stops_cli_start_up_naming_key_or_line(
    home: Path, inputs: Path, case: str, command: list[str]
) -> None:
    text, needles = CASES[case]
    write(home / "config.toml", text)
    doc = write(inputs / "a.txt", "Some paragraph.\n")
    args = [str(doc) if a == "IMPORT" else a for a in command]

    result = mr(home, *args)

    assert result.returncode == 2, result
    message = result.stderr.lower()
    assert "config.toml" in message
    for needle in needles:
        assert needle.lower() in message, (needle, result.stderr)
    assert "traceback" not in message
    assert not db_file(home).exists()  # refused before the library was opened


@pytest.mark.parametrize("case", ["bad_toml", "retention_one_and_a_half"])
def test_bad_config_stops_app_start_up(home: Path, case: str) -> None:
    """`memoryrush` with no command opens the app: it must refuse before drawing anything."""
    text, needles = CASES[case]
    write(home / "config.toml", text)
    import subprocess

    result = subprocess.run(
        cli_argv(), env=mr_env(home), capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
    )

    assert result.returncode != 0
    for needle in needles:
        assert needle.lower() in result.stderr.lower(), result.stderr
    assert "traceback" not in result.stderr.lower()


def test_a_bad_ollama_host_in_the_environment_falls_back_with_a_notice(home: Path, inputs: Path) -> None:
    """$OLLAMA_HOST is not the config file: the import goes on, offline, and says why."""
    import os

    doc = write(inputs / "a.txt", "A paragraph about spaced repetition and memory.\n")
    os.environ["OLLAMA_HOST"] = "http://[::1"
    try:
        result = mr(home, "import", str(doc), "--extractor", "ollama")
    finally:
        del os.environ["OLLAMA_HOST"]
    assert result.returncode == 0, result
    assert "$OLLAMA_HOST" in result.stdout and "used the offline extractor" in result.stdout
    assert "traceback" not in (result.stdout + result.stderr).lower()
