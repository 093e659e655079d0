"""The single-instance lock: one process per data directory; the kernel frees it on any death."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from process_support import lock_held

from core.domain.errors import AlreadyRunning, StorageError
from core.host import paths
from core.host.lock import InstanceLock
from core.services.bootstrap import open_services


@pytest.fixture
def holder(data_home: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of this test's data dir."""
    with lock_held(data_home) as proc:
        yield proc


def test_a_second_lock_in_the_same_dir_is_refused_at_once(data_home: Path) -> None:
    with InstanceLock(paths.lock_path()), pytest.raises(AlreadyRunning, match="already running"):
        InstanceLock(paths.lock_path()).acquire()
    InstanceLock(paths.lock_path()).acquire().release()  # free again after release


def test_the_message_names_the_holder_and_what_to_do(data_home: Path, holder: subprocess.Popen[str]) -> None:
    with pytest.raises(AlreadyRunning) as info:
        open_services(data_home)
    message = str(info.value)
    assert str(holder.pid) in message
    assert str(data_home) in message
    assert "--data-dir" in message


def test_read_only_opening_works_beside_a_holder(data_home: Path, holder: subprocess.Popen[str]) -> None:
    svc = open_services(data_home, exclusive=False)
    try:
        assert svc.library.article_count() == 0
    finally:
        svc.close()


def test_another_data_dir_is_independent(
    data_home: Path, tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    """The holder locks its own folder only: another folder opens for writing, with a lock of
    its own, while the holder's stays held."""
    elsewhere = tmp_path / "elsewhere"
    svc = open_services(elsewhere)
    try:
        assert svc.lock is not None and svc.data_dir == elsewhere
        assert (elsewhere / "memoryrush.sqlite3").is_file()
    finally:
        svc.close()
    with pytest.raises(AlreadyRunning):
        InstanceLock(data_home / "memoryrush.lock").acquire()


def test_a_killed_holder_frees_the_lock(data_home: Path, holder: subprocess.Popen[str]) -> None:
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=10)
    assert paths.lock_path().exists()  # a stale file, but no stale lock
    svc = open_services(data_home)
    svc.close()


def test_a_failed_open_releases_the_lock(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    (data_home / "memoryrush.sqlite3").write_bytes(b"garbage" * 1000)
    for _ in range(2):  # the second attempt meets the same damage, not "already running"
        with pytest.raises(StorageError, match="damaged"):
            open_services(data_home)


def test_an_unwritable_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        lock = InstanceLock(blocker / "memoryrush.lock")
    else:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        lock = InstanceLock(ro / "memoryrush.lock")
    with pytest.raises(StorageError, match="cannot create the lock file"):
        lock.acquire()


def test_acquire_twice_in_one_process_is_harmless(data_home: Path) -> None:
    lock = InstanceLock(paths.lock_path()).acquire()
    try:
        assert lock.acquire() is lock
    finally:
        lock.release()
    lock.release()  # releasing twice is fine too
