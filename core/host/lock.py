"""Single-instance lock: one process writes a data directory at a time.

An advisory `flock` on a lock file: released by the kernel when the process dies (even on
kill -9), so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from core.domain.errors import AlreadyRunning, StorageError


class InstanceLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> InstanceLock:
        """Take the lock or raise AlreadyRunning (naming the holder's pid) at once; never waits."""
        if self._fd is not None:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StorageError(
                f"cannot create the lock file {self.path} ({exc.strerror or exc}); "
                "check that the data folder is writable, or use another --data-dir"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                other = os.read(fd, 64).decode(errors="replace").strip()
            finally:
                os.close(fd)
            who = f" (pid {other})" if other.isdigit() else ""
            raise AlreadyRunning(
                f"MemoryRush is already running on {self.path.parent}{who}; "
                "close it first, or use another --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
