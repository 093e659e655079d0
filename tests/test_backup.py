"""Backups and restore on real library files: consistent while reviews go on, automatic backups by
the settings, restore refuses what it cannot trust and keeps the current library first."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from export_support import build_library, table_rows
from process_support import count

from core.domain.errors import StorageError
from core.host import paths, priority
from core.host.clock import FixedClock
from core.host.lock import InstanceLock
from core.services import backup
from core.services.bootstrap import Services
from core.storage import backup as backup_files
from scheduler import Rating
from tests.faults.helpers import run_mr

DAY = 86400


@pytest.fixture
def library(services: Services, clock: FixedClock) -> Services:
    build_library(services, clock, days=2)
    return services


def test_a_backup_is_the_library_as_it_was_while_reviews_go_on(
    library: Services, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(backup_files, "STEP_PAGES", 2)  # many steps: answers land between them
    before = count(paths.database_path(), "SELECT COUNT(*) FROM review_log")
    library.review.start_session()  # (unburies: a write of its own)
    snapshot = table_rows(paths.database_path())
    answered: list[int] = []

    def answer_one(done: int, total: int) -> None:
        item = library.review.next_card()
        if item is not None and done < total:
            library.review.answer(item.card.id, Rating.GOOD)  # commits while the copy is under way
            answered.append(item.card.id)

    made = backup.backup_now(library.config, tmp_path / "copy.sqlite3", progress=answer_one)
    assert len(answered) >= 2
    assert count(paths.database_path(), "SELECT COUNT(*) FROM review_log") == before + len(answered)
    con = sqlite3.connect(made.path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    assert table_rows(made.path) == snapshot  # none of the answers made during the copy


def test_automatic_backups_daily_at_startup_or_off_keeping_n(library: Services) -> None:
    config = replace(library.config, backup_keep=2)
    manual = backup.backup_now(config, now=1_000_000.0)
    day0 = 1_800_000_000.0
    assert backup.auto_backup(config, now=day0) is not None
    assert backup.auto_backup(config, now=day0 + 3600) is None  # daily: one a day
    second = backup.auto_backup(config, now=day0 + DAY + 1)
    third = backup.auto_backup(config, now=day0 + 2 * DAY + 2)
    assert second is not None and third is not None and len(third.pruned) == 1
    kinds = [(b.kind, b.at) for b in backup.list_backups(config)]
    assert kinds == [("auto", int(day0 + 2 * DAY + 2)), ("auto", int(day0 + DAY + 1)), ("manual", 1_000_000)]
    assert manual.path.exists()  # backups you make are never pruned
    every = replace(config, backup_auto="startup")
    assert backup.auto_backup(every, now=day0 + 2 * DAY + 60) is not None
    assert backup.auto_backup(replace(config, backup_auto="off"), now=day0 + 9 * DAY) is None


def test_restore_puts_a_backup_back_and_keeps_the_current_library(library: Services, tmp_path: Path) -> None:
    saved = backup.backup_now(library.config, tmp_path / "saved.sqlite3")
    expected = table_rows(saved.path)
    library.review.start_session()
    item = library.review.next_card()
    assert item is not None
    library.review.answer(item.card.id, Rating.AGAIN)  # a change after the backup
    current = table_rows(paths.database_path())
    done = backup.restore(library.config, saved.path)
    assert table_rows(paths.database_path()) == expected
    assert table_rows(done.kept) == current  # the library as it was, kept
    assert done.kept.name.startswith("memoryrush-before-restore-")
    assert library.library.articles()  # the library is open again and readable


def _copy_with(saved: Path, tmp_path: Path, name: str, sql: str) -> Path:
    target = tmp_path / name
    shutil.copy(saved, target)
    con = sqlite3.connect(target)
    con.execute(sql)
    con.commit()
    con.close()
    return target


def test_restore_refuses_damaged_newer_and_foreign_files(library: Services, tmp_path: Path) -> None:
    saved = backup.backup_now(library.config, tmp_path / "saved.sqlite3").path
    live = table_rows(paths.database_path())
    newer = _copy_with(saved, tmp_path, "newer.sqlite3", "PRAGMA user_version = 99")
    foreign = tmp_path / "foreign.sqlite3"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    damaged = tmp_path / "damaged.sqlite3"
    data = bytearray(saved.read_bytes())
    data[4096 * 2 : 4096 * 2 + 2000] = b"\xff" * 2000  # a page scribbled over
    damaged.write_bytes(bytes(data))
    text = tmp_path / "export.json"
    text.write_text("{}", encoding="utf-8")
    cases = [
        (newer, "newer MemoryRush"),
        (foreign, "not a MemoryRush library"),
        (damaged, "damaged"),
        (text, "not an SQLite"),
    ]
    for path, message in cases:
        with pytest.raises(StorageError, match=message):
            backup.restore(library.config, path)
    with pytest.raises(StorageError, match="the library itself"):
        backup.restore(library.config, paths.database_path())
    assert table_rows(paths.database_path()) == live
    assert not [b for b in backup.list_backups(library.config) if b.kind == "before-restore"]


def test_restore_is_refused_while_the_app_runs(library: Services, data_home: Path, tmp_path: Path) -> None:
    saved = backup.backup_now(library.config, tmp_path / "saved.sqlite3").path
    library.close()
    lock = InstanceLock(paths.lock_path()).acquire()  # as the running app holds it
    try:
        done = run_mr(data_home, "restore", str(saved), "--yes")
    finally:
        lock.release()
    assert done.returncode == 2
    assert "already" in done.stderr.lower() or "running" in done.stderr.lower(), done.stderr
    ok = run_mr(data_home, "backup", str(tmp_path / "cli.sqlite3"))
    assert ok.returncode == 0 and (tmp_path / "cli.sqlite3").exists(), ok.stderr
    listed = run_mr(data_home, "backup", "--list")
    assert listed.returncode == 0 and "backups in" in listed.stdout
    restored = run_mr(data_home, "restore", str(saved), "--yes")
    assert restored.returncode == 0, restored.stderr
    assert "restored" in restored.stdout and "before-restore" in restored.stdout


def test_each_step_of_a_copy_is_on_disk_before_the_next(
    library: Services, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The copy is flushed step by step (never a whole library left for the disk to write at
    once, which held up every fsync meanwhile: the app's answers too)."""
    monkeypatch.setattr(backup_files, "STEP_PAGES", 4)
    flushed: list[int] = []
    real = backup_files._FLUSH

    def flush(fd: int) -> None:
        real(fd)
        flushed.append(os.fstat(fd).st_size)

    monkeypatch.setattr(backup_files, "_FLUSH", flush)
    made = backup.backup_now(library.config, tmp_path / "copy.sqlite3")
    pages = made.size // 4096
    assert len(flushed) >= pages // 4  # one flush a step, the last step's included
    assert flushed == sorted(flushed) and flushed[-1] == made.size


def test_background_work_runs_in_its_own_thread_at_lower_priority() -> None:
    import threading

    caller = threading.get_native_id()
    before = os.getpriority(os.PRIO_PROCESS, caller)
    seen: list[tuple[int, int]] = []

    def work() -> str:
        me = threading.get_native_id()
        seen.append((me, os.getpriority(os.PRIO_PROCESS, me)))
        return "done"

    assert priority.run_in_background(work) == "done"
    ((worker, nice),) = seen
    assert worker != caller
    assert os.getpriority(os.PRIO_PROCESS, caller) == before  # the caller's is untouched
    if sys.platform.startswith("linux"):
        assert nice >= priority.BACKGROUND_NICE

    def fails() -> None:
        raise StorageError("disk full")

    with pytest.raises(StorageError, match="disk full"):
        priority.run_in_background(fails)
