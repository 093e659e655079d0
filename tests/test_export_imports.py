"""The export, backup and agent features cost start-up nothing, and Anki's AGPL code never runs in
the product: genanki and the MCP SDK load only with the commands that need them; `anki` is
imported by tests (and bench/) only."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("genanki", "mcp", "anki")


def loaded_after(code: str) -> set[str]:
    probe = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return {m.split(".")[0] for m in json.loads(done.stdout.splitlines()[-1])}


def test_the_app_the_cli_and_the_export_dialog_load_no_export_library() -> None:
    loaded = loaded_after(
        "import tui.app, tui.cli.main, tui.cli.export_cmds, tui.cli.backup_cmds, tui.cli.mcp_cmds, "
        "tui.modals.export, tui.backup_worker, core.services.export.runner, core.services.backup"
    )
    assert not set(HEAVY) & loaded


def test_only_the_anki_export_loads_genanki_and_only_mcp_loads_the_sdk() -> None:
    anki_export = loaded_after("import core.services.export.anki")
    assert "genanki" in anki_export
    assert "mcp" not in anki_export
    assert "mcp" in loaded_after("import tui.cli.mcp_server")
    for module in (
        "core.services.export.library_json",
        "core.services.export.markdown",
        "core.services.export.csv_export",
    ):
        assert not set(HEAVY) & loaded_after(f"import {module}"), module


def test_no_product_module_imports_anki() -> None:
    """`anki` is AGPL: tests read our packages with it; the product never imports it."""
    bad = []
    for folder in ("core", "tui", "scheduler", "themes"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                bad += [
                    f"{path.relative_to(ROOT)}: {n}" for n in names if n == "anki" or n.startswith("anki.")
                ]
    assert bad == []
