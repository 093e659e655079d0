"""How SQLite errors reach the rest of the program: as a StorageError that says what to do.

`translated` wraps every public storage function (tests/test_storage_edge.py checks it);
`translate` turns one raised error into the message; `root_cause` finds the error that started
it when SQLite has rolled back before peewee's own rollback failed.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import peewee

from core.domain.errors import DatabaseBusy, DiskFull, StorageError

# What SQLite raises through peewee and through the raw connection (the search index writes with
# executemany on db.connection()): sqlite3.DatabaseError covers OperationalError ("locked",
# "full") and the "database disk image is malformed" that came through untranslated before.
SQLITE_ERRORS = (peewee.DatabaseError, sqlite3.DatabaseError)


def translate(exc: BaseException) -> StorageError:
    """Turn a SQLite error into a message a person can act on."""
    if isinstance(exc, StorageError):  # translated already, further down
        return exc
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return DatabaseBusy("the database is busy (locked by another process); nothing was saved, try again")
    if "full" in text:
        return DiskFull("disk full, nothing saved; free some space and try again")
    if "not a database" in text or "malformed" in text:
        return StorageError(f"the database file is damaged ({exc}); restore one from backups/")
    if "readonly" in text or "read-only" in text:
        return StorageError(
            "the library is read-only here (its folder or file cannot be written); nothing was "
            "saved; reading still works, check the permissions to change it"
        )
    if "unable to open database file" in text:
        return StorageError(
            f"cannot open the library file ({exc}); check that its folder exists and can be read"
        )
    return StorageError(f"database error: {exc}")


P = ParamSpec("P")
R = TypeVar("R")


def translated(fn: Callable[P, R]) -> Callable[P, R]:
    """A repository function: any SQLite error raised inside it (a damaged page read long after
    start-up, a lock, a full disk) leaves it as a StorageError that says what to do. Generator
    functions are translated while they are iterated. Every public function of a storage module
    carries this (a test checks), so no caller meets a raw peewee or sqlite3 error."""
    if inspect.isgeneratorfunction(fn):

        @functools.wraps(fn)
        def generate(*args: P.args, **kwargs: P.kwargs) -> Any:
            try:
                yield from fn(*args, **kwargs)
            except SQLITE_ERRORS as exc:
                raise translate(root_cause(exc)) from exc

        generate.translates_storage_errors = True  # type: ignore[attr-defined]
        return generate

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except SQLITE_ERRORS as exc:
            raise translate(root_cause(exc)) from exc

    call.translates_storage_errors = True  # type: ignore[attr-defined]
    return call


_ROLLED_BACK = ("no transaction is active", "no such savepoint")


def root_cause(exc: BaseException) -> BaseException:
    """The error that started it: after SQLITE_FULL (and some I/O errors) SQLite has already
    rolled back, so peewee's own rollback fails ("no transaction is active", or "no such
    savepoint" inside a nested atomic) and hides it."""
    while any(m in str(exc) for m in _ROLLED_BACK) and exc.__context__ is not None:
        exc = exc.__context__
    return exc
