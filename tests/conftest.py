"""Shared fixtures: every test gets its own data dir (a real SQLite file) and a fixed clock."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_articles"
FIXED_NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): three workers a core, four more than the cores at most.
    Much of the suite's time is tests waiting on real processes (kill -9 loops, quits by
    deadline, the app in tmux), and a worker waiting leaves its core idle. On 2 cores, the same
    clone: 2 workers 7 min 03 s, 4 workers 4 min 04 s - 5 min 02 s, 6 workers 4 min 38 s."""
    cores = os.cpu_count() or 1
    return min(3 * cores, cores + 4)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """MEMORYRUSH_HOME points into tmp_path: data, config and lock never touch the real home."""
    home = tmp_path / "home"
    monkeypatch.setenv("MEMORYRUSH_HOME", str(home))
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    return home


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(FIXED_NOW)


@pytest.fixture
def services(data_home: Path, clock: FixedClock) -> Iterator[Services]:
    svc = open_services(data_home, clock=clock)
    try:
        yield svc
    finally:
        svc.close()


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, list[Any]]]]:
    """Every statement the search's read side runs, with its parameters (the search tests)."""
    seen: list[tuple[str, list[Any]]] = []
    from core.storage.search import query as search_query

    run = search_query._rows

    def traced(sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        seen.append((sql, list(params)))
        return run(sql, params)

    monkeypatch.setattr(search_query, "_rows", traced)
    yield seen
