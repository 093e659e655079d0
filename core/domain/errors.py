"""Errors that carry a message fit to show a person: what happened and what to do."""

from __future__ import annotations


class MemoryRushError(Exception):
    """Base class: str(error) is a one-line message for the user."""


class RefusedInput(MemoryRushError):
    """An input file was refused; nothing was written."""


class ConfigError(MemoryRushError):
    """The config file is invalid; start-up stops. The message names the key or line/column."""


class StorageError(MemoryRushError):
    """The database could not be used (locked, full, from a newer version...)."""


class DatabaseBusy(StorageError):
    """Another process holds the database lock; retry later."""


class DiskFull(StorageError):
    """The disk (or the page limit) is full; nothing was saved."""


class AlreadyRunning(MemoryRushError):
    """Another MemoryRush instance uses this data directory."""


class Cancelled(MemoryRushError):
    """The person cancelled long work (an import); what was in progress was not saved."""
