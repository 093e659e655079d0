"""What the writes-off-the-UI-thread tests of Schedule, Settings, Browse, the Trash, Import,
Export and the CLI watch besides `ui_thread_writes` (issue 31): config.toml written on the UI
thread (not SQLite, but a write a slow disk makes a frame wait for), and the typed commands run
(every change goes through `Services.run`). Both call the real code after noting the call."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.services import preferences
from core.services.bootstrap import Services


@pytest.fixture
def ui_thread_config_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every config.toml written on the main thread (the app's UI thread under Pilot)."""
    seen: list[Path] = []
    save = preferences.save_config

    def save_config(path: Path, config: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            seen.append(path)
        save(path, config)

    monkeypatch.setattr(preferences, "save_config", save_config)
    yield seen


@pytest.fixture
def commands_run(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of every command `Services.run` handled, on any thread, in order."""
    seen: list[str] = []
    run = Services.run

    def noted(self: Services, command: Any) -> Any:
        seen.append(type(command).__name__)
        return run(self, command)

    monkeypatch.setattr(Services, "run", noted)
    yield seen
