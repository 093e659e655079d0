"""What the start-up speed work must keep true (the figures themselves are in bench/bench_tui.py).

- `memoryrush` imports a subcommand's module only when that command runs (or for --help), and
  the table saying where each command lives matches the modules;
- the collector paused for the app's start is running again after a subcommand, and after the
  app's first frame;
- what the start path has not loaded when the first frame is shown: each module named in
  NOT_BEFORE_FIRST_FRAME was once loaded on the way there and cost the cold start (callgrind,
  bench/tui_cold.py), and the text gate's character classes are not compiled yet.
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

from core.services.bootstrap import open_services
from tests.test_app_warm import HEAVY
from tui.app import WARM_MODULES
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


# Modules (and their submodules) the first frame does without, each with what loading it before
# the first frame cost (callgrind instructions to Ready; bare Textual ~0.89G, MemoryRush ~1.07G).
NOT_BEFORE_FIRST_FRAME = {
    "peewee": "~51M to import, ~25M more for the table classes: the first read loads it (core/storage/fast_open.py)",
    "core.storage.db": "the library's database: bound to the file by the first read",
    "core.domain.model": "the domain dataclasses: ~106M to build (the card table's columns read them)",
    "core.domain.card": "the domain Card: ~16M with core.domain.artifact",
    "core.storage.converters": "rows -> dataclasses: needs the domain model",
    "core.text.cjk": "the CJK ranges: ~30M to compile",
    "core.storage.library": "the library's reads and writes",
    "core.storage.search.query": "search",
    "core.storage.browse.rows": "Browse's row query: ~150M with its domain types",
    "core.services.home": "Home's figures: read by a worker after the first frame",
    "core.services.stats": "",
    "core.services.review": "",
    "core.services.library": "",
    "core.services.browse": "",
    "core.ingest": "the readers",
    "core.extraction": "the extractors",
    "core.validation": "the gate",
    "scheduler": "",
    "fsrs": "",
    "tomlkit": "saving settings",
    "click": "the command line",
    **dict.fromkeys(WARM_MODULES, "imported in a thread once the first frame is shown"),
    **dict.fromkeys(HEAVY, "heavy dependencies"),
}

FIRST_FRAME_PROBE = """
import json, sys
from tui.launch import start_up
start_up()
from core.services.bootstrap import open_services
from tui.app import MemoryRushApp

class FirstFrame(MemoryRushApp):
    def on_ready(self):
        import core.text
        self.seen = {"modules": sorted(sys.modules), "patterns": core.text._pattern.cache_info().currsize}
        self.exit()

app = FirstFrame(open_services(None))
try:
    app.run(headless=True, size=(120, 40))
finally:
    app.services.close()
print(json.dumps(app.seen))
"""


def test_the_first_frame_is_shown_before_what_it_does_without_is_loaded(data_home: Path) -> None:
    """The real start path (the `memoryrush` command's: start_up, open the library, run the app)
    on a library with its schema made, up to Textual's Ready event."""
    open_services(data_home).close()
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    loaded = [
        m
        for m in seen["modules"]
        if any(m == name or m.startswith(name + ".") for name in NOT_BEFORE_FIRST_FRAME)
    ]
    assert loaded == []
    assert "tui.screens.home" in seen["modules"]  # the probe did reach Home's first frame
    assert seen["patterns"] == 0  # core.text's classes: compiled at the first text that needs them
