"""One worker runner (issue 31): every thread worker of the TUI starts in tui/runner.py, which
releases the thread's database connection, posts the result and has the app report a failure.

A scan of the source (ast): no other tui module starts a worker (`run_worker`, Textual's `@work`),
waits on the UI thread from a thread (`call_from_thread`), starts a thread of its own
(`threading.Thread`), closes a thread's connection by hand (`end_thread_work`) or handles worker
states (`on_worker_state_changed`: the app's `on_work_failed` is the one handler). Allowed:
tui/workers.py's executor (a daemon thread per worker) and tui/quitting.py's deadline thread.
"""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"
ALLOWED = {
    "run_worker": {"runner.py"},
    "end_thread_work": {"runner.py"},
    "threading.Thread": {"workers.py", "quitting.py"},
}


def offences(source: str, rel: str) -> list[str]:
    """What `source` (the file tui/`rel`) does that only the runner may."""
    found: list[str] = []

    def say(node: ast.AST, what: str) -> None:
        if rel not in ALLOWED.get(what, set()):
            found.append(f"{rel}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in (
            "run_worker",
            "call_from_thread",
            "end_thread_work",
        ):
            say(node, node.attr)
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "Thread"
            and getattr(node.value, "id", "") == "threading"
        ):
            say(node, "threading.Thread")
        elif isinstance(node, ast.ImportFrom) and node.module == "threading":
            for alias in node.names:
                if alias.name == "Thread":
                    say(node, "threading.Thread")
        elif isinstance(node, ast.ImportFrom) and node.module == "textual":
            for alias in node.names:
                if alias.name == "work":
                    say(node, "@work")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name == "on_worker_state_changed":
                say(node, "on_worker_state_changed")
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if getattr(target, "id", getattr(target, "attr", "")) == "work":
                    say(node, "@work")
    return found


def test_only_the_runner_starts_workers() -> None:
    files = list(TUI.rglob("*.py"))
    assert len(files) > 40
    problems = [p for f in files for p in offences(f.read_text(encoding="utf-8"), str(f.relative_to(TUI)))]
    assert problems == []


def test_the_scan_sees_every_way_around_the_runner() -> None:
    ways = {
        "import textual\n@textual.work(thread=True)\ndef load(self):\n    pass\n": "@work",
        "from textual import work\n": "@work",
        "def load(self):\n    self.run_worker(self.read, thread=True)\n": "run_worker",
        "def read(self):\n    self.app.call_from_thread(self.show, 1)\n": "call_from_thread",
        "import threading\nthreading.Thread(target=print).start()\n": "threading.Thread",
        "from threading import Thread\n": "threading.Thread",
        "def read(self):\n    self.services.end_thread_work()\n": "end_thread_work",
        "def on_worker_state_changed(self, event):\n    pass\n": "on_worker_state_changed",
    }
    for source, what in ways.items():
        assert [p.split(": ", 1)[1] for p in offences(source, "screens/x.py")] == [what], source
    runner = "def start(node):\n    node.run_worker(job, thread=True)\n    services.end_thread_work()\n"
    assert offences(runner, "runner.py") == []
    assert offences("import threading\nthreading.Thread(target=print)\n", "quitting.py") == []
    assert offences("stop = threading.Event()\n", "screens/x.py") == []  # a flag, not a thread
