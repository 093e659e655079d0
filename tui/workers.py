"""Where the app's thread workers run: threads that never keep the process alive after quitting.

Textual runs a thread worker in the event loop's default executor, and asyncio joins that
executor's threads when the app's loop closes: a worker blocked in a slow model request held
the process after ctrl+q until the request ended (for ever, with a server that keeps sending).
Here each worker runs in a daemon thread; on exit the app waits for running workers up to
GRACE_S (an answer or a file being saved finishes), then leaves without them. An abandoned
worker's transaction is never committed, as after a kill -9: SQLite rolls it back.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

GRACE_S = 3.0


class DaemonWorkerThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor (asyncio wants a ThreadPoolExecutor) with one daemon thread per task."""

    def __init__(self, grace: float = GRACE_S) -> None:
        super().__init__(max_workers=1, thread_name_prefix="memoryrush-worker")  # (its pool is unused)
        self.grace = grace
        self.abandoned = 0  # tasks still running when the app left
        self._running: set[concurrent.futures.Future[Any]] = set()
        self._guard = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
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

        with self._guard:
            self._running.add(future)
        threading.Thread(target=run, name="memoryrush-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._guard:
            running = list(self._running)
        if wait and running:
            _, still = concurrent.futures.wait(running, timeout=self.grace)
            self.abandoned = len(still)
        super().shutdown(wait=False)
