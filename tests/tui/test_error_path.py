"""One typed error path that no call can skip: every use of a service in a screen, modal or
palette provider sits inside a `with ...reporting(...)` / `with Reporting(...)` block, or runs
in a thread worker (whose errors the app reports under the worker's name)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"
USE_CASES = {"library", "curation", "review", "stats", "search"}
# Helpers that only a thread worker calls (their errors reach the worker's report).
WORKER_HELPERS = {("modals/search.py", "find")}


def _reports(node: ast.With) -> bool:
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in {"reporting", "Reporting"}:
                return True
    return False


def _is_worker(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if getattr(target, "id", getattr(target, "attr", "")) == "work":
            return True
    return False


def unguarded(source: str, rel: str) -> list[str]:
    """Uses of a service in `source` (the file tui/`rel`) outside a reporting block or worker."""
    found: list[str] = []

    def visit(node: ast.AST, guarded: bool, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
            guarded = guarded or _is_worker(node) or (rel, node.name) in WORKER_HELPERS
        if isinstance(node, ast.With) and _reports(node):
            guarded = True
        if (
            isinstance(node, ast.Attribute)
            and node.attr in USE_CASES
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "services"
            and not guarded
        ):
            found.append(f"{rel}:{node.lineno} in {function}(): services.{node.attr}")
        for child in ast.iter_child_nodes(node):
            visit(child, guarded, function)

    visit(ast.parse(source), False, "<module>")
    return found


def test_every_service_use_is_reported_or_in_a_worker() -> None:
    files = [p for p in TUI.rglob("*.py") if "cli" not in p.parts]
    assert len(files) > 15
    problems = [p for f in files for p in unguarded(f.read_text(encoding="utf-8"), str(f.relative_to(TUI)))]
    assert problems == []


def test_the_check_sees_an_unguarded_call() -> None:
    bare = "def action_x(self):\n    self.services.review.undo()\n"
    assert unguarded(bare, "screens/x.py") == ["screens/x.py:2 in action_x(): services.review"]
    reported = (
        'def action_x(self):\n    with self.reporting("undoing"):\n        self.services.review.undo()\n'
    )
    assert unguarded(reported, "screens/x.py") == []
    worker = "@work(thread=True)\ndef load(self):\n    self.services.stats.summary()\n"
    assert unguarded(worker, "screens/x.py") == []
