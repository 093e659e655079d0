"""TUI fixtures: a fixed clock in UTC, a library in tmp_path, the cwd in tmp_path, no cursor blink.

The root conftest already points MEMORYRUSH_HOME into tmp_path (`data_home`).
"""

from __future__ import annotations

import asyncio
import inspect
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import peewee
import pytest
from built_libraries import copy_built
from textual.widgets import Input, TextArea

from core.host.clock import FixedClock
from core.services.bootstrap import Services, open_services
from sample_articles import sample_paths
from tests.pilot_support import screen_text as screen_text  # (re-exported: tests import them from here)
from tests.pilot_support import settle as settle
from tui.app import MemoryRushApp
from tui.modals.search import SearchModal
from tui.screens.article import ArticleScreen
from tui.screens.review import ReviewScreen

S = TypeVar("S")
NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
SIZE = (120, 36)
HOSTILE_TITLE = "Evil [@click=app.quit] title"
HOSTILE_BODY = (
    "# Evil [@click=app.quit] title\n\n"
    "Click [@click=app.quit] here and [bold]x[/bold and [link=file:///etc]y[/link] and \x1b]2;title\x07 done.\n\n"
    "Spaced repetition schedules [red]reviews[/red] at increasing intervals so memories last longer.\n\n"
    "The forgetting curve describes how recall decays over time without any review at all.\n"
)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests here on a fresh event loop (Pilot needs one; no plugin required)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


@pytest.fixture(autouse=True)
def steady_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No blinking cursors (stable snapshots); the import tree starts in tmp_path."""
    monkeypatch.setattr(Input, "cursor_blink", False)
    monkeypatch.setattr(TextArea, "cursor_blink", False)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def tui_clock() -> FixedClock:
    return FixedClock(NOW)


def _import_samples(home: Path) -> None:
    services = open_services(home, clock=FixedClock(NOW))
    try:
        for outcome in services.library.import_paths(sample_paths(), extractor="offline"):
            assert outcome.status == "imported", outcome
    finally:
        services.close()


@pytest.fixture
def svc(request: pytest.FixtureRequest, data_home: Path, tui_clock: FixedClock) -> Iterator[Services]:
    """Services on a fresh file database in tmp_path, with a fixed clock and UTC review days.
    A test that asks for `samples` too starts from a copy of the sample library instead (built
    once per test process: tests/built_libraries.py)."""
    if "samples" in request.fixturenames:
        copy_built("samples", data_home, _import_samples)
    services = open_services(data_home, clock=tui_clock)
    services.review.tz = UTC
    services.stats.tz = UTC
    services.review.fuzz = False
    try:
        yield services
    finally:
        services.close()


@pytest.fixture
def samples(svc: Services) -> Services:
    """`svc` on the shipped sample articles imported with the offline extractor at NOW
    (deterministic): a fresh copy of a library built once per test process (see `svc`)."""
    return svc


@pytest.fixture
def hostile_file(tmp_path: Path) -> Path:
    path = tmp_path / "articles" / "evil.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HOSTILE_BODY, encoding="utf-8")
    return path


def imported(services: Services, path: Path, text: str) -> int:
    """`text` written to `path` and imported by the offline extractor: the new article's id."""
    path.write_text(text, encoding="utf-8")
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported" and outcome.article_id is not None
    return outcome.article_id


def confirm_all(services: Services) -> None:
    """Every valid proposal of every article confirmed: each unit's cards are due."""
    for article in services.library.articles():
        services.curation.accept_all_valid(article.id)


def make_app(services: Services, *, theme: str = "memoryrush-dark", start: str = "home") -> MemoryRushApp:
    services.config = replace(services.config, theme=theme)
    return MemoryRushApp(services, start=start)


@asynccontextmanager
async def running(
    services: Services, *, size: tuple[int, int] = SIZE, notifications: bool = False, **options: Any
) -> AsyncIterator[tuple[MemoryRushApp, Any]]:
    """The app (`make_app` with `options`) run at `size` and settled: (app, pilot)."""
    app = make_app(services, **options)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await settle(pilot)
        yield app, pilot


@asynccontextmanager
async def reviewing(
    services: Services, **options: Any
) -> AsyncIterator[tuple[MemoryRushApp, Any, ReviewScreen]]:
    """The last article's units confirmed, then the app `running` (with `options`) on Review with
    a card shown: (app, pilot, the Review screen)."""
    article = services.library.articles()[-1]
    services.curation.accept_all_valid(article.id)
    async with running(services, start="review", **options) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.item is not None
        yield app, pilot, screen


async def opened(pilot: Any, key: str, kind: type[S]) -> S:
    """`key` pressed and the app settled: the screen it opened, which must be a `kind`."""
    await pilot.press(key)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


async def article_screen(pilot: Any, article_id: int, **where: Any) -> ArticleScreen:
    """The app settled, then the article opened (`where`: as `open_article` takes it) and settled."""
    await settle(pilot)
    pilot.app.open_article(article_id, **where)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ArticleScreen)
    return screen


async def searched(pilot: Any, words: str) -> SearchModal:
    """`/` and the words typed; settled once every search has shown its hits."""
    await pilot.press("slash", *words)
    await settle(pilot)
    modal = pilot.app.screen
    assert isinstance(modal, SearchModal)
    return modal


async def until(pilot: Any, ready: Callable[[], object], seconds: float = 30) -> None:
    """Wait, the app running, until `ready()` is true; fail after `seconds` (generous: a loaded
    machine). For what `settle` does not wait for: DirectoryTree's loader, the palette's search."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready after {seconds} s")
        await pilot.pause(0.05)


WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE|BEGIN\s+IMMEDIATE)\b", re.IGNORECASE)


@pytest.fixture
def ui_thread_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every write statement peewee sends to SQLite on the main thread (the app's UI thread under
    Pilot) from now on. Issue 31: every change of the library is a command run in a worker, so a
    held write lock never freezes a frame; a test clears the list once its app is up (its setup
    writes on this thread), presses keys, and expects it empty."""
    seen: list[str] = []
    send = peewee.Database.execute_sql

    def execute_sql(self: peewee.Database, sql: str, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is threading.main_thread() and WRITE.match(sql):
            seen.append(sql)
        return send(self, sql, *args, **kwargs)

    monkeypatch.setattr(peewee.Database, "execute_sql", execute_sql)
    return seen
