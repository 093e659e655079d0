"""Fixtures of the fault suite. The root conftest already points MEMORYRUSH_HOME at tmp_path."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.services.bootstrap import Services

from .helpers import RUBISCO, SAMPLES, SCRIPTS, mr_env, wait_for_line
from .tmux import Tmux, tmux_available


@pytest.fixture
def home(data_home: Path) -> Path:
    """The library folder of this test (MEMORYRUSH_HOME); created empty."""
    data_home.mkdir(parents=True, exist_ok=True)
    return data_home


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "inputs"
    folder.mkdir()
    return folder


class Holder:
    """A helper process started from tests/faults/scripts; `release()` closes its stdin."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def release(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=10)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def start_holder(home: Path) -> Iterator:
    """start_holder(script, *args, ready=needle) -> Holder, stopped after the test."""
    started: list[Holder] = []

    def start(script: str, *args: str, ready: str) -> Holder:
        proc = subprocess.Popen(
            [sys.executable, str(SCRIPTS / script), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=mr_env(home),
        )
        holder = Holder(proc)
        started.append(holder)
        wait_for_line(proc, ready)
        return holder

    yield start
    for h in started:
        h.kill()


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    """A private tmux server for real-terminal checks (skipped without tmux)."""
    if not tmux_available():
        pytest.skip("tmux is not installed (apt-get install -y tmux): the real-terminal check needs it")
    t = Tmux(tmp_path)
    try:
        yield t
    finally:
        t.close()


@pytest.fixture
def rubisco_article(services: Services) -> tuple[Services, int, str]:
    """The photosynthesis sample imported (offline extractor): (services, its article id, the id
    of the paragraph that holds the RuBisCO sentence, `RUBISCO`)."""
    (outcome,) = services.library.import_paths([SAMPLES / "photosynthesis.txt"], extractor="offline")
    assert outcome.article_id is not None
    pid = next(p.paragraph_id for p in services.library.paragraphs(outcome.article_id) if RUBISCO in p.text)
    return services, outcome.article_id, pid
