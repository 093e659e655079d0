"""The house's layering (STYLE.md): arrows point down only.

- core and scheduler never import textual or tui;
- scheduler imports nothing of ours but core domain types;
- tui never imports peewee or core.storage itself (it goes through core.services).

Checked three ways: importing every module in a fresh interpreter and reading sys.modules, an
import hook that records which module asked for what, and the import-linter contracts in
pyproject.toml (`lint-imports`).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules_under(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


PROBE = r"""
import builtins, importlib, json, sys

targets, watched = json.loads(sys.argv[1]), json.loads(sys.argv[2])
direct = []  # (importer, imported) for every import statement whose importer is watched
real_import = builtins.__import__

def resolve(name, globals_, level):
    if level and globals_:
        package = globals_.get("__package__") or ""
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        return f"{base}.{name}" if name else base
    return name

def recording_import(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__", "")
    if any(importer == w or importer.startswith(w + ".") for w in watched):
        full = resolve(name, globals, level)
        direct.append((importer, full))
        for item in fromlist or ():
            direct.append((importer, f"{full}.{item}"))
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = recording_import
introduced = {}
failed = {}
for module in targets:
    before = set(sys.modules)
    try:
        importlib.import_module(module)
    except Exception as exc:  # reported, so a broken module fails the test with its name
        failed[module] = repr(exc)
    introduced[module] = sorted(set(sys.modules) - before)
print(json.dumps({"introduced": introduced, "failed": failed, "direct": direct, "all": sorted(sys.modules)}))
"""


def probe(targets: list[str], watched: list[str]) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(targets), json.dumps(watched)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout.splitlines()[-1])
    return data


def hits(names: list[str], forbidden: tuple[str, ...]) -> list[str]:
    return [n for n in names if any(n == f or n.startswith(f + ".") for f in forbidden)]


def test_core_and_scheduler_never_load_textual_or_tui() -> None:
    targets = modules_under("core") + modules_under("scheduler")
    assert "core.storage.db" in targets and "scheduler" in targets
    data = probe(targets, [])
    assert data["failed"] == {}
    introduced: dict[str, list[str]] = data["introduced"]  # type: ignore[assignment]
    culprits = {m: hits(new, ("textual", "tui")) for m, new in introduced.items()}
    assert {m: c for m, c in culprits.items() if c} == {}
    assert hits(data["all"], ("textual", "tui")) == []  # type: ignore[arg-type]


def test_scheduler_loads_nothing_of_ours_but_core_domain() -> None:
    data = probe(modules_under("scheduler"), ["scheduler"])
    assert data["failed"] == {}
    loaded: list[str] = data["all"]  # type: ignore[assignment]
    ours = [n for n in loaded if n.split(".")[0] in {"core", "tui"}]
    domain = {
        "core",
        "core.domain",
        "core.domain.model",
        "core.domain.issues",
        "core.domain.states",
        "core.domain.review",
    }
    assert set(ours) <= domain | {"core.domain.card", "core.domain.context"}, ours
    assert hits(loaded, ("peewee", "textual", "sqlite3")) == []


def test_tui_never_imports_storage_or_peewee_itself() -> None:
    """Loading tui loads storage *through* core.services (that is the design); what is checked
    is that no tui module asks for peewee or core.storage by itself."""
    targets = modules_under("tui")
    assert "tui.cli.main" in targets
    data = probe(targets, ["tui"])
    assert data["failed"] == {}
    direct: list[list[str]] = data["direct"]  # type: ignore[assignment]
    bad = sorted({(importer, name) for importer, name in direct if hits([name], ("peewee", "core.storage"))})
    assert bad == []
    assert any(name.startswith("core.services") for _, name in direct)  # the probe sees real imports


def test_tui_source_names_no_storage_import_even_inside_functions() -> None:
    """Lazy imports inside functions never run at import time: read the source as well."""
    bad = []
    for path in sorted((ROOT / "tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", ""))
                in {"import_module", "__import__"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names = [str(node.args[0].value)]
            for name in hits(names, ("peewee", "core.storage")):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert bad == []


def test_the_probe_would_catch_a_violation(tmp_path: Path) -> None:
    """The hook is not blind: a tui-named module importing peewee is reported."""
    package = tmp_path / "tui_probe_check"
    package.mkdir()
    (package / "__init__.py").write_text("import peewee\nfrom core import storage\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(["tui_probe_check"]), json.dumps(["tui_probe_check"])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"},
        check=False,
    )
    direct = json.loads(result.stdout.splitlines()[-1])["direct"]
    assert ["tui_probe_check", "peewee"] in direct
    assert ["tui_probe_check", "core.storage"] in direct


@pytest.mark.timeout(120)
def test_import_linter_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    result = subprocess.run([str(lint)], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
