"""Single-instance lock: one process writes a data directory at a time.

Advisory `flock`s, released by the kernel when the process dies (even on kill -9), so a crash
never leaves a stale lock behind. Two of them:

- on the data folder itself: a folder holding the library cannot be deleted from under the
  holder, so deleting `memoryrush.lock` while the app runs no longer lets a second writer in
  (it did: the next process made a new file and locked that);
- on the lock file, which names the holder's pid for the refusal message (and is what
  releases before this one locked).

Writing the pid can fail on a full disk: the error then says so, and a lock file this call
created is removed again rather than left empty.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from types import TracebackType

from core.domain.errors import AlreadyRunning, StorageError

_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


class InstanceLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fds: list[int] = []

    def acquire(self) -> InstanceLock:
        """Take the lock or raise AlreadyRunning (naming the holder's pid) at once; never waits."""
        if self._fds:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            folder = os.open(self.path.parent, os.O_RDONLY)
        except OSError as exc:
            raise self._cannot(exc, "create the lock file") from None
        taken = [folder]
        try:
            if not self._lock(folder, optional=True):
                raise self._running()
            created, fd = self._open_file()
            taken.append(fd)
            if not self._lock(fd):
                raise self._running()
            self._write_pid(fd, created)
        except BaseException:
            for fd in reversed(taken):
                os.close(fd)
            raise
        self._fds = taken
        return self

    def _open_file(self) -> tuple[bool, int]:
        try:
            try:
                return True, os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return False, os.open(self.path, os.O_RDWR)
        except OSError as exc:
            raise self._cannot(exc, "create the lock file") from None

    @staticmethod
    def _lock(fd: int, *, optional: bool = False) -> bool:
        """flock it; False if another process holds it. A folder lock the file system does not
        support (`optional`) is skipped: the file lock still holds."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError:
            if not optional:
                raise
        return True

    def _write_pid(self, fd: int, created: bool) -> None:
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError as exc:
            if created:
                self.path.unlink(missing_ok=True)
            raise self._cannot(exc, "write the lock file") from None

    def holder(self) -> str:
        """Who holds the lock, for a message: " (pid N)", or "" when the file does not say."""
        try:
            other = self.path.read_text(errors="replace").strip()[:20]
        except OSError:
            other = ""
        return f" (pid {other})" if other.isdigit() else ""

    def _running(self) -> AlreadyRunning:
        who = self.holder()
        return AlreadyRunning(
            f"MemoryRush is already running on {self.path.parent}{who}; close it first, or use another --data-dir"
        )

    def _cannot(self, exc: OSError, what: str) -> StorageError:
        if exc.errno in _FULL:
            return StorageError(
                f"cannot {what} {self.path}: the disk is full; free some space, or use another --data-dir"
            )
        return StorageError(
            f"cannot {what} {self.path} ({exc.strerror or exc}); "
            "check that the data folder is writable, or use another --data-dir"
        )

    def release(self) -> None:
        for fd in reversed(self._fds):
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        self._fds = []

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
