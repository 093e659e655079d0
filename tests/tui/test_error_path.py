"""One typed error path that no call can skip: every use of a service in a screen, modal or
palette provider sits inside a `with ...reporting(...)` / `with Reporting(...)` block, or runs
in a worker of the runner (tui/runner.py: the app reports its errors under the worker's name):
in the arguments of a `runner.start(...)` call, or in a function of the file handed to one as
its job (`runner.start(self, "...", read, ...)`, `partial(find, ...)`)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"
USE_CASES = {"library", "curation", "review", "stats", "search"}
RUNNER_STARTS = {"start", "start_on_loop"}  # runner.start(...), runner.start_on_loop(...)


def _starts_a_worker(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in RUNNER_STARTS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "runner"
    )


def _named(arg: ast.AST) -> set[str]:
    """The function an argument hands over: `read`, `self._export`, `partial(find, ...)`."""
    if isinstance(arg, ast.Name):
        return {arg.id}
    if isinstance(arg, ast.Attribute):
        return {arg.attr}
    if isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "partial" and arg.args:
        return _named(arg.args[0])
    return set()


def worker_jobs(tree: ast.AST) -> set[str]:
    """Names of the functions a file hands to the runner: they run in its workers."""
    return {
        name
        for node in ast.walk(tree)
        if _starts_a_worker(node)
        for arg in [*node.args, *(k.value for k in node.keywords)]  # type: ignore[attr-defined]
        for name in _named(arg)
    }


def _reports(node: ast.With) -> bool:
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in {"reporting", "Reporting"}:
                return True
    return False


def unguarded(source: str, rel: str) -> list[str]:
    """Uses of a service in `source` (the file tui/`rel`) outside a reporting block or worker."""
    found: list[str] = []
    tree = ast.parse(source)
    jobs = worker_jobs(tree)

    def visit(node: ast.AST, guarded: bool, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
            guarded = guarded or node.name in jobs
        if (isinstance(node, ast.With) and _reports(node)) or _starts_a_worker(node):
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

    visit(tree, False, "<module>")
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
    job = 'def load(self):\n    runner.start(self, "reading", self.services.stats.summary, self.Read)\n'
    assert unguarded(job, "screens/x.py") == []
    handed = (
        "def load(self):\n    def read():\n        return self.services.stats.summary()\n"
        '    runner.start(self, "reading", read, self.Read)\n'
    )
    assert unguarded(handed, "screens/x.py") == []
    kept = handed.replace("runner.start", "self.run_worker")  # not the runner: not a worker of ours
    assert unguarded(kept, "screens/x.py") == ["screens/x.py:3 in read(): services.stats"]
