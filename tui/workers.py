"""Where the app's thread workers run: threads that never keep the process alive after quitting.

Textual runs a thread worker in the event loop's default executor, and asyncio joins that
executor's threads when the app's loop closes: a worker blocked in a slow model request held
the process after ctrl+q until the request ended (for ever, with a server that keeps sending).
Here each worker runs in a daemon thread; on exit the app waits for running workers up to
GRACE_S (an answer or a file being saved finishes), then leaves without them. An abandoned
worker's transaction is never committed, as after a kill -9: SQLite rolls it back.

The app's writes (tui/runner.py `run`: a typed command) go to its one writer thread instead, in
the order they were asked: an answer was a Textual worker of its own (a task, a thread, four
messages), 2-3 ms of CPU more than the write itself (bench/bench_tui.py, rating -> next card).
Writes asked together share the writer's connection; it is closed whenever the queue is empty
(0.4 ms to open again), so no connection outlives a changed pragma or a reopened library. On
exit the writes still queued are done, within the same GRACE_S.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

GRACE_S = 3.0
log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())


class DaemonWorkerThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor (asyncio wants a ThreadPoolExecutor) with one daemon thread per task, and the
    app's one writer thread (`write`)."""

    def __init__(self, grace: float = GRACE_S) -> None:
        super().__init__(max_workers=1, thread_name_prefix="memoryrush-worker")  # (its pool is unused)
        self.grace = grace
        self.abandoned = 0  # tasks still running when the app left
        self._running: set[concurrent.futures.Future[Any]] = set()
        self._guard = threading.Lock()
        self._writes: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._writer: threading.Thread | None = None
        self._writer_ends: Callable[[], None] = lambda: None
        self._pending_writes = 0

    def write(self, fn: Callable[[], Any], ends: Callable[[], None]) -> concurrent.futures.Future[Any]:
        """Run `fn` on the writer thread after every write asked before it; `ends` runs on that
        thread whenever its queue is empty (its database connection closed)."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._guard:
            self._running.add(future)
            self._pending_writes += 1
            self._writer_ends = ends
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_loop, name="memoryrush-writer", daemon=True
                )
                self._writer.start()
        self._writes.put((future, fn))
        return future

    def writing(self) -> bool:
        """Whether a write is queued or running (tests wait for it as for a worker)."""
        with self._guard:
            return self._pending_writes > 0

    def _write_loop(self) -> None:
        while (item := self._writes.get()) is not None:
            future, fn = item
            self._run(future, fn)
            if self._writes.empty():  # a burst of writes shares a connection; idle, it is closed
                self._end_quietly()
            with self._guard:
                self._pending_writes -= 1
        self._end_quietly()

    def _end_quietly(self) -> None:
        """The writer's connection closed; a failure to close it never ends the writer (every
        later write would wait for ever): logged, and the next write opens its own."""
        try:
            self._writer_ends()
        except Exception:
            log.exception("closing the writer's database connection")

    def _run(
        self, future: concurrent.futures.Future[Any], fn: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn(*args, **kwargs)
        except BaseException as exc:
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            with self._guard:
                self._running.discard(future)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._guard:
            self._running.add(future)
        threading.Thread(
            target=self._run, args=(future, fn, *args), kwargs=kwargs, name="memoryrush-worker", daemon=True
        ).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._writes.put(None)  # the writer ends after the writes queued before
        with self._guard:
            running = list(self._running)
        if wait and running:
            _, still = concurrent.futures.wait(running, timeout=self.grace)
            self.abandoned = len(still)
        super().shutdown(wait=False)
