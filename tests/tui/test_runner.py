"""The one worker runner (tui/runner.py) in the running app: a job's database connection is closed
as it ends, a failure is said once by the app under the worker's name (logged, the screen's own
hook after it), a cancelled worker's result never lands, a write that outlives its screen says
it is done, and Browse's mount waits for its first page though a worker reads it."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import ClassVar

import pytest
from conftest import opened, running, settle, until
from process_support import write_locked
from test_review_support import due_one_a_day, q

from core.domain.errors import MemoryRushError
from core.domain.home import HomeFigures
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.commands import Command
from core.storage.db import db
from tui import runner
from tui.screens.browse import screen as browse_screen
from tui.screens.home import HomeScreen
from tui.screens.schedule import ScheduleScreen


def _edit_a_missing_unit(svc: Services) -> None:
    svc.curation.edit(999_999, content="x", memory_type="claim", tags=(), questions=())


async def test_a_jobs_database_connection_is_closed_as_it_ends_well_or_not(svc: Services) -> None:
    """SQLite connections are per thread: the runner closes the one a job opened, whether the job
    returned or raised (the rule the screens once kept by hand, and Stats, Home, Search forgot)."""
    opened: list[sqlite3.Connection] = []

    def read() -> int:
        count = svc.library.article_count()
        opened.append(db.connection())  # this thread's own connection
        return count

    def fail() -> None:
        svc.library.article_count()
        opened.append(db.connection())
        _edit_a_missing_unit(svc)

    async with running(svc, notifications=True) as (app, pilot):
        runner.start(app, "counting", read)
        runner.start(app, "failing", fail)
        await settle(pilot)
        assert len(opened) == 2 and opened[0] is not opened[1]
        for connection in opened:
            with pytest.raises(sqlite3.ProgrammingError, match="closed"):
                connection.execute("SELECT 1")
        assert svc.library.article_count() == 0  # the UI thread's own connection is untouched


async def test_a_failure_is_said_once_by_the_app_logged_and_the_screen_puts_itself_back(
    svc: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """A screen's worker fails: the app says it once, under the worker's name, as an error (one
    handler, whichever node ran the worker); the log has it with its traceback; then the
    call's hook runs, where a screen puts its state back (Review's saving flag). An error
    without words (a bug) is named by its kind."""
    hooked: list[Exception] = []

    def bug() -> None:
        raise LookupError

    async with running(svc, notifications=True) as (app, pilot):
        home = app.screen
        with caplog.at_level(logging.ERROR, logger="tui.runner"):
            runner.start(home, "saving an edit", lambda: _edit_a_missing_unit(svc), failed=hooked.append)
            await settle(pilot)
        said = [n.message for n in app._notifications if n.message.startswith("saving an edit")]
        assert len(said) == 1 and "999999 does not exist" in said[0], said
        assert [n.severity for n in app._notifications if n.message in said] == ["error"]
        assert len(hooked) == 1 and isinstance(hooked[0], MemoryRushError)
        assert str(hooked[0]) in said[0]
        assert any("saving an edit" in r.getMessage() and r.exc_info for r in caplog.records), caplog.records
        runner.start(home, "reading", bug)
        await settle(pilot)
        assert any(n.message == "reading: LookupError" for n in app._notifications), app._notifications
        assert app.is_running and app.screen is home


async def test_a_cancelled_workers_result_never_lands(svc: Services) -> None:
    """A newer search or page cancels the worker it replaces; that worker's thread runs on, and
    its result, if it comes, is dropped: it would paint over the newer one."""
    async with running(svc) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen) and home._figures is not None
        stale = replace(home._figures, due=4242)

        async def read_while(cancel: bool) -> HomeFigures | None:
            started, go, made = threading.Event(), threading.Event(), threading.Event()

            def slow() -> HomeFigures:
                started.set()
                go.wait(10)
                return stale

            def figures_read(figures: HomeFigures) -> HomeScreen.FiguresRead:
                made.set()  # the job ended: its result is posted now, or dropped
                return home.FiguresRead(figures)

            worker = runner.start(home, "reading today's figures", slow, figures_read, exclusive=True)
            await until(pilot, started.is_set)  # (a worker cancelled before its thread starts never runs)
            if cancel:
                worker.cancel()
            go.set()
            await until(pilot, made.is_set)
            await pilot.pause(0.2)
            return home._figures

        assert await read_while(cancel=True) is not stale
        assert await read_while(cancel=False) is stale  # (the same, not cancelled: it lands)


async def test_a_bulk_write_that_outlives_its_screen_says_it_is_done(
    svc: Services, tui_clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Easy days set, the database locked by another process: the cards move once it is free,
    though the Schedule screen was left meanwhile (the app's worker), and the app says so."""
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "20000")
    due_one_a_day(svc, tui_clock)
    today = tui_clock.now().date()
    easy = ["1"] * 7
    easy[(today + timedelta(days=2)).weekday()] = "0"
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "w", ScheduleScreen)
        with write_locked():
            await pilot.press("e", *["backspace"] * 20, *" ".join(easy), "enter")
            await pilot.pause(0.2)
            await pilot.press("escape")  # back Home: the move goes on
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
        await settle(pilot)
        assert any(n.message == "Done: moving cards off the easy days" for n in app._notifications)
        day = int(tui_clock.now().timestamp()) // 86400 + 2
        assert q("SELECT COUNT(*) FROM card WHERE queue = 2 AND due / 86400 = ?", day) == [(0,)]


@pytest.mark.parametrize(("wait_s", "rows"), [(10.0, True), (0.0, False)])
async def test_browse_has_its_first_page_when_its_mount_ends(
    samples: Services, monkeypatch: pytest.MonkeyPatch, wait_s: float, rows: bool
) -> None:
    """The page is read in a worker and Browse's on_mount waits for it (runner.result_within), so
    the screen's first layout can have the rows: the page's message alone would be handled only
    after on_mount, the handler it waits behind. Not waiting (0 s), the rows come after."""
    from tui.widgets.row_table import RowTable

    monkeypatch.setattr(browse_screen, "FIRST_PAGE_WAIT_S", wait_s)  # (10 s: a loaded machine)
    real = browse_screen.BrowseScreen.on_mount
    after_mount: list[int] = []

    async def on_mount(screen: browse_screen.BrowseScreen) -> None:
        await real(screen)
        after_mount.append(screen.query_one(RowTable).row_count)

    monkeypatch.setattr(browse_screen.BrowseScreen, "on_mount", on_mount)
    async with running(samples) as (app, pilot):
        await pilot.press("b")
        await settle(pilot)
        assert len(after_mount) == 1 and (after_mount[0] > 0) is rows, after_mount
        assert app.screen.query_one(RowTable).row_count > 0  # either way, the page is shown


async def test_a_loop_worker_cancelled_before_it_starts_leaves_no_coroutine_unawaited(svc: Services) -> None:
    """`start_on_loop` calls its work when the worker starts: a worker cancelled before (its screen
    closed, the app quit) made no coroutine, so none is left never awaited (Python's
    RuntimeWarning, which the lay-out-ahead of every paragraph view printed at a quit)."""
    import gc
    import warnings

    started: list[str] = []

    async def walk() -> None:
        started.append("walk")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with running(svc) as (app, pilot):
            worker = runner.start_on_loop(app.screen, "laying out ahead", walk, group="ahead")
            worker.cancel()  # before the loop ran it
            await pilot.pause()
            later = runner.start_on_loop(app.screen, "laying out ahead", walk, group="ahead")
            await until(pilot, lambda: started == ["walk"])
        del worker, later
        gc.collect()
    assert started == ["walk"]  # the one left to start ran its work; the cancelled one never made it
    assert not [w for w in caught if "never awaited" in str(w.message)]


@dataclass(frozen=True, slots=True)
class _Noted(Command[str]):
    """A test's command: notes its word and the thread it ran on (or raises for "fail")."""

    word: str
    seen: list[tuple[str, str]]
    what: ClassVar[str] = "noting"

    def handle(self, services: Services) -> str:
        if self.word == "fail":
            _edit_a_missing_unit(services)
        services.library.article_count()  # a read on this thread's connection
        self.seen.append((self.word, threading.current_thread().name))
        return self.word


async def test_commands_run_in_the_order_asked_on_the_one_writer_thread_a_failure_stops_none(
    svc: Services,
) -> None:
    """Writes are done one after the other as they were asked (SQLite has one writer anyway), on
    the writer thread, never the UI thread; one that fails is said under its `what` and the next
    one still runs; the writer's connection is closed once its queue is empty."""
    seen: list[tuple[str, str]] = []
    async with running(svc, notifications=True) as (app, pilot):
        for word in ("one", "two", "fail", "three"):
            runner.run(app, _Noted(word, seen))
        await settle(pilot)
        assert [word for word, _ in seen] == ["one", "two", "three"]
        assert {thread for _, thread in seen} == {"memoryrush-writer"}
        assert any(str(n.message).startswith("noting") for n in app._notifications)
        runner.run(app, _Noted("four", seen))
        await settle(pilot)
        assert seen[-1] == ("four", "memoryrush-writer")


def test_a_write_asked_just_before_the_app_ends_is_done(svc: Services) -> None:
    """Quitting waits for the writes still queued (up to the grace of tui/workers.py): a rating
    pressed right before ctrl+q is saved."""
    seen: list[tuple[str, str]] = []

    async def go() -> None:
        async with running(svc) as (app, _):
            for word in ("a", "b", "c"):
                runner.run(app, _Slow(word, seen))

    asyncio.run(go())
    assert [word for word, _ in seen] == ["a", "b", "c"]


@dataclass(frozen=True, slots=True)
class _Slow(_Noted):
    """A test's write that takes a moment, so that the app has ended before it is done."""

    what: ClassVar[str] = "writing slowly"

    def handle(self, services: Services) -> str:
        time.sleep(0.2)
        self.seen.append((self.word, threading.current_thread().name))
        return self.word
