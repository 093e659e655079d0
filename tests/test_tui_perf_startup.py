"""What the start-up speed work must keep true (the figures themselves are in bench/bench_tui.py).

- `memoryrush` imports a subcommand's module only when that command runs (or for --help), and
  the table saying where each command lives matches the modules;
- the collector paused for the app's start is running again after a subcommand, and after the
  app's first frame.
"""

from __future__ import annotations

import gc
import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli.main import COMMAND_HOMES, COMMAND_MODULES, cli
from tui.launch import start_up

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    try:
        yield
    finally:
        gc.enable() if was else gc.disable()


def test_every_command_is_found_where_the_table_says() -> None:
    homes = {
        command.name: module
        for module in COMMAND_MODULES
        for command in importlib.import_module(module).COMMANDS
    }
    assert homes == COMMAND_HOMES


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    for name in COMMAND_HOMES:
        assert f"  {name} " in result.output, name


def test_the_console_script_hands_arguments_to_the_cli(data_home: Path) -> None:
    """`memoryrush <command>` goes through click; plain `memoryrush` opens the app (not run here)."""
    script = "import sys; from tui.launch import main; sys.argv = ['memoryrush', 'list']; main()"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    script = "import sys; from tui.launch import main; sys.argv = ['memoryrush', '--bogus']; main()"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "--bogus" in done.stderr


def test_the_console_script_module_imports_nothing_heavy() -> None:
    probe = "import json, sys; import tui.launch; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    assert not {"click", "textual", "peewee"} & loaded


def test_importing_the_cli_leaves_commands_and_textual_unimported() -> None:
    probe = "import json, sys; import tui.cli.main; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    assert not loaded & set(COMMAND_MODULES)
    assert "textual" not in loaded
    assert "core.ingest" not in loaded


def test_a_subcommand_runs_with_the_collector_on(collector_restored: None, data_home: Path) -> None:
    start_up()
    assert not gc.isenabled()
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0, result.output
    assert gc.isenabled()


def test_an_unknown_command_is_still_refused() -> None:
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output
