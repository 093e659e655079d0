"""Two instances at once: the second is refused with a clear message; a killed one frees the lock."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .helpers import SAMPLES, cli_argv, mr_env, run_mr, scalar, write


def test_second_instance_refused_while_first_holds_the_library(
    home: Path, start_holder, inputs: Path
) -> None:
    first = start_holder("hold_instance.py", ready="ready")
    pid = first.proc.pid
    doc = write(inputs / "a.txt", "A first paragraph about locks.\n\nA second paragraph.\n")

    second = run_mr(home, "import", str(doc), "--extractor", "placeholder")

    assert second.returncode == 2, second
    assert "already running" in second.stderr
    assert str(pid) in second.stderr  # says which process holds it
    assert "--data-dir" in second.stderr  # and what to do
    assert scalar(home, "SELECT COUNT(*) FROM article") == 0  # nothing written by the refused one


def test_lock_is_freed_when_the_first_instance_is_killed(home: Path, start_holder, inputs: Path) -> None:
    first = start_holder("hold_instance.py", ready="ready")
    first.kill()  # SIGKILL: no clean-up code runs; the kernel drops the flock
    doc = write(inputs / "a.txt", "A paragraph after a crash.\n")

    again = run_mr(home, "import", str(doc), "--extractor", "placeholder")

    assert again.returncode == 0, again.stderr
    assert scalar(home, "SELECT COUNT(*) FROM article") == 1


def test_two_imports_racing_one_wins_one_is_refused(home: Path, inputs: Path) -> None:
    """Two real `memoryrush import` processes started together on the same library."""
    for i in range(60):
        write(inputs / f"doc{i:02d}.txt", "\n\n".join(f"Paragraph {j} of document {i}." for j in range(80)))
    cmd = [*cli_argv(), "import", str(inputs), "--extractor", "placeholder"]
    # Open the library once first so both racers meet an existing database.
    assert run_mr(home, "list").returncode == 0
    procs = [
        subprocess.Popen(cmd, env=mr_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    codes = sorted(r[0] for r in results)
    refused = [r for r in results if r[0] == 2]
    assert codes == [0, 2], results
    assert "already running" in refused[0][2]
    assert scalar(home, "SELECT COUNT(*) FROM article") == 60
    assert scalar(home, "SELECT COUNT(DISTINCT document_id) FROM article") == 60


def test_read_only_commands_work_beside_a_running_instance(home: Path, start_holder) -> None:
    assert (
        run_mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder").returncode
        == 0
    )
    start_holder("hold_instance.py", ready="ready")
    listed = run_mr(home, "list")
    assert listed.returncode == 0, listed.stderr
    assert "Photosynthesis: how plants" in listed.stdout  # the first line is the title


def test_second_app_is_refused_while_the_first_app_runs(home: Path, tmp_path: Path) -> None:
    """Two `memoryrush` apps in a real terminal (tmux): the second prints why and exits 2; a
    CLI import meanwhile is refused too; after the first quits, a new app opens."""
    import time

    import pytest

    from .tmux import Tmux, tmux_available

    if not tmux_available():
        pytest.skip("tmux is not installed (apt-get install -y tmux): the real-terminal check needs it")
    assert (
        run_mr(home, "import", str(SAMPLES / "photosynthesis.txt"), "--extractor", "placeholder").returncode
        == 0
    )
    tmux = Tmux(tmp_path)
    try:
        first = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home))
        tmux.wait_for(first, "to confirm")
        second = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home))
        tmux.wait_dead(second)
        assert tmux.exit_status(second) == 2
        assert "already running" in tmux.screen(second)
        assert "Traceback" not in tmux.screen(second)
        refused = run_mr(home, "import", str(SAMPLES / "spaced-repetition.md"), "--extractor", "placeholder")
        assert refused.returncode == 2 and "already running" in refused.stderr
        assert not tmux.dead(first)  # the first app is untouched
        for _ in range(5):
            tmux.keys(first, "C-q")
            time.sleep(1)
            if tmux.dead(first):
                break
        tmux.wait_dead(first)
        assert tmux.exit_status(first) == 0, "the first app did not quit cleanly"
        third = tmux.start([*cli_argv(), "--data-dir", str(home)], mr_env(home))
        tmux.wait_for(third, "to confirm")
        tmux.keys(third, "C-q")
    finally:
        tmux.close()
