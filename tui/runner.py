"""The one way the TUI runs work off the UI thread (issue 31): `start(node, name, job, done)`.

There were four ways to start a worker (`@work` methods, `run_worker` calls on a screen or on
the app, `call_from_thread` back) and five `on_worker_state_changed` handlers, and the rule that
a worker thread closes its own database connection was kept by hand in some of them and
forgotten in others (Stats, Schedule, Home, Import, Search). Here, as Harlequin runs every query
through one worker path and one `handle_worker_error`:

- `run(node, command, done)` is how a screen changes the library: the typed command
  (core/services/commands) runs through `services.run` on the app's one writer thread
  (tui/workers.py), after the writes asked before it; the screen handles `done(result)`; a
  failure is the app's to say under the command's `what`. A long command (an import, a bulk
  action) runs in a worker of its own, as `start` runs one. `start` is for reads and other jobs:
- `start` starts a named Textual thread worker (exit_on_error=False) on the node that asked, which
  calls `job` (headless: a call into core.services) and ALWAYS releases the thread's database
  connection as it ends (Services.end_thread_work: SQLite connections are per thread).
- On success `done(result)` (a past-tense Message: `AnswerSaved`, `ForecastRead`; `Done[T]`
  carries a result) is posted to that node, whose handler runs on the UI thread. The result of
  a worker cancelled meanwhile (a newer search or page took its place, its screen was closed)
  is dropped: it would paint over the newer one.
- On failure `WorkFailed` goes to the app, whose one handler (`report_failure`) logs the error,
  says it as a notice under the worker's name ("saving the answer: the database is busy ...")
  and then calls the call's `failed` hook, where a screen puts its state back (Review's saving
  flag, the Export dialog's status). The app never ends on a worker's error.
- `outlive=True`: the worker is the app's, so leaving the screen neither cancels it nor loses
  its result: `done` reaches the screen while it is mounted, else the app says "Done: name"
  (the journalled bulk writes, backups).
- A long loop checks `textual.worker.get_current_worker().is_cancelled`, or a stop flag of its
  own that the screen sets (Browse's count and Import hand one to the service: core knows no
  Textual).
- `result_within` lets a screen's on_mount wait a moment for a worker's result and show it
  before it returns (Browse's first page).
- `start_on_loop` is the same for a coroutine on the UI's own loop (no thread, no connection):
  the paragraph window's lay-out ahead.

tests/tui/test_one_runner.py fails if a tui module other than this one starts a worker, calls
`call_from_thread` or starts a thread (tui/workers.py's executor and tui/quitting.py's deadline
thread aside).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from textual.message import Message
from textual.worker import Worker, get_current_worker

from tui.reporting import report
from tui.safe import notify

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode

    from core.services.bootstrap import Services
    from core.services.commands import Command

T = TypeVar("T")
# What a screen hands a job besides its arguments, made here so that no screen, modal or widget
# imports threading (the lint-imports contract): a flag the screen sets and the job reads
# between steps (core.domain.stop.StopFlag: Import's Cancel, Browse's count of an older filter).
# (The journalled writes' one-at-a-time lock is their commands': core/services/commands/bulk.py.)
StopEvent = threading.Event


log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())  # the notice says it; a caller may add a handler (tests do)


@dataclass
class Done(Message, Generic[T]):
    """A job's result, on the UI thread. Subclass it per outcome, in the past tense, inside the
    screen that handles it (`class ForecastRead(Done[Forecast])`: `on_schedule_screen_forecast_read`)."""

    result: T


@dataclass
class WorkFailed(Message, bubble=False):
    """A job raised. Handled by `MemoryRushApp.on_work_failed`, which calls `report_failure`."""

    name: str
    error: Exception
    node: DOMNode
    failed: Callable[[Exception], None] | None


def start(
    node: DOMNode,
    name: str,
    job: Callable[[], T],
    done: Callable[[T], Message] | None = None,
    *,
    group: str = "default",
    exclusive: bool = False,
    failed: Callable[[Exception], None] | None = None,
    outlive: bool = False,
) -> Worker[T]:
    """Run `job` in a thread worker called `name` (the notice of its failure says it); post
    `done(result)` to `node`. `group` / `exclusive` as Textual's (an exclusive worker cancels
    the group's others on the same node); `failed(error)` runs on the UI thread after the app
    reported it; `outlive`: the app's worker (see the module's docstring)."""
    app = node.app
    owner: DOMNode = app if outlive else node
    work = _thread_job(app, node, name, job, done, failed, outlive=outlive)
    return owner.run_worker(
        work, name=name, group=group, exclusive=exclusive, thread=True, exit_on_error=False
    )


def run(
    node: DOMNode,
    command: Command[T],
    done: Callable[[T], Message] | None = None,
    *,
    group: str = "write",
    exclusive: bool = False,
    failed: Callable[[Exception], None] | None = None,
    outlive: bool = False,
) -> Worker[T] | Future[T]:
    """Run the write `command` on the app's one writer thread (tui/workers.py), after the writes
    asked before it: `done(result)` is posted to `node` (dropped when its screen has gone, unless
    `outlive`: then the app says "Done: what"); a failure is reported by the app under
    `command.what`, then `failed(error)` runs. A long command (an import, a bulk action:
    `command.long`) runs in a worker of its own instead (`start`, with `group` and `exclusive`),
    so that the writes asked meanwhile do not wait for it. Either can be awaited (`result_within`)."""
    app = node.app
    services: Services = cast(Any, app).services
    job = partial(services.run, command)
    if command.long:
        return start(
            node, command.what, job, done, group=group, exclusive=exclusive, failed=failed, outlive=outlive
        )

    def write() -> T:
        try:
            result = job()
            message = done(result) if done is not None else None
        except Exception as error:
            app.post_message(WorkFailed(command.what, error, node, failed))
            raise
        if message is not None and not node.post_message(message) and outlive:
            notify(app, f"Done: {command.what}")
        return result

    return cast(Future[T], cast(Any, app).worker_threads.write(write, services.end_thread_work))


def _thread_job(
    app: App[Any],
    node: DOMNode,
    name: str,
    job: Callable[[], T],
    done: Callable[[T], Message] | None,
    failed: Callable[[Exception], None] | None,
    *,
    outlive: bool,
) -> Callable[[], T]:
    """What the worker's thread runs: the job, the connection released, the outcome posted
    (post_message is safe from a thread; the UI thread is never waited for)."""
    services: Services = cast(Any, app).services

    def work() -> T:
        worker = get_current_worker()
        try:
            result = job()
            message = done(result) if done is not None else None
        except Exception as error:
            if not worker.is_cancelled:
                app.post_message(WorkFailed(name, error, node, failed))
            raise  # the worker ends in ERROR, as Textual's own would (wait() raises WorkerFailed)
        finally:
            services.end_thread_work()
        if message is not None and not worker.is_cancelled:
            delivered = node.post_message(message)
            if outlive and not delivered:  # its screen was left: the app says it is done
                notify(app, f"Done: {name}")
        return result

    return work


async def result_within(worker: Worker[T] | Future[T], seconds: float) -> T | None:
    """The worker's result if it ends well within `seconds`, else None (its `done` message brings
    it later; a failure is the app's to report). For a screen's on_mount that shows the result
    before it returns, as Browse's first page: its message, posted meanwhile, would wait behind
    the very handler that waits for it (a node handles one message at a time)."""
    waiting = (
        asyncio.wrap_future(worker) if isinstance(worker, Future) else asyncio.ensure_future(worker.wait())
    )
    waiting.add_done_callback(_seen)
    finished, _ = await asyncio.wait({waiting}, timeout=seconds)
    if waiting in finished and not waiting.cancelled() and waiting.exception() is None:
        return waiting.result()
    return None


def _seen(waiting: asyncio.Future[Any]) -> None:
    """Take a failed wait's exception (WorkerFailed, WorkerCancelled), so asyncio does not log
    it as never retrieved: the failure is reported by the app, a cancellation is no error."""
    if not waiting.cancelled():
        waiting.exception()


def start_on_loop(
    node: DOMNode, name: str, work: Callable[[], Coroutine[Any, Any, None]], *, group: str
) -> Worker[None]:
    """Run the coroutine `work()` as an async worker on the UI's loop (work that must touch
    widgets, a step a turn); a failure is reported as a thread job's is. `work` is called when the
    worker starts: one cancelled before (its screen closed, the app quit) leaves no coroutine
    that was never awaited."""
    app = node.app

    async def guarded() -> None:
        try:
            await work()
        except Exception as error:
            app.post_message(WorkFailed(name, error, node, None))
            raise

    return node.run_worker(guarded, name=name, group=group, exit_on_error=False)


def report_failure(app: App[Any], message: WorkFailed) -> None:
    """The one handler of a worker's failure: logged, a notice under the worker's name, then the
    call's own hook if its node is still there. The app runs on."""
    log.error("%s failed: %r", message.name, message.error, exc_info=message.error)
    report(app, message.name, message.error)
    if message.failed is not None and (message.node is app or message.node.is_attached):
        message.failed(message.error)
