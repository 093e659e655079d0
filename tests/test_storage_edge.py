"""Rows become dataclasses and SQLite errors become StorageError at the repository edge: every
public function of a storage module translates errors (a damaged page, a lock, a full disk),
so no service or screen ever meets a raw peewee or sqlite3 exception."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sqlite3

import peewee
import pytest

import core.storage
from core.domain.errors import StorageError
from core.storage.errors import translated

# Infrastructure, not repositories: the database itself, table definitions, row converters.
NOT_REPOSITORIES = {
    "core.storage.db",
    "core.storage.errors",
    "core.storage.converters",
    "core.storage.review.models",
    # what the library file holds, and reading it before peewee loads (an error there means the
    # full open, which translates it)
    "core.storage.layout",
    "core.storage.fast_open",
}


def storage_modules() -> list[str]:
    found = pkgutil.walk_packages(core.storage.__path__, prefix="core.storage.")
    return sorted(m.name for m in found if not m.ispkg and m.name not in NOT_REPOSITORIES)


def test_every_public_storage_function_translates_sqlite_errors() -> None:
    modules = storage_modules()
    assert {"core.storage.library", "core.storage.review.cards", "core.storage.search.query"} <= set(modules)
    bare = []
    for name in modules:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("_") or not inspect.isfunction(value) or value.__module__ != name:
                continue
            if not getattr(value, "translates_storage_errors", False):
                bare.append(f"{name}.{attr}")
    assert bare == []


@pytest.mark.parametrize(
    "error",
    [
        peewee.DatabaseError("database disk image is malformed"),
        sqlite3.DatabaseError("file is not a database"),
    ],
)
def test_a_translated_read_says_damaged(error: Exception) -> None:
    @translated
    def read() -> int:
        raise error

    @translated
    def rows():  # type: ignore[no-untyped-def]
        yield 1
        raise error

    for attempt in (read, lambda: list(rows())):
        with pytest.raises(StorageError, match=r"damaged.*restore one from backups/"):
            attempt()
