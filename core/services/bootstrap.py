"""The one place storage is wired to services. CLI, App and tests all build through here."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from core.domain import READER_VERSION
from core.domain.errors import AlreadyRunning
from core.host import paths
from core.host.clock import Clock
from core.host.config import Config, Settings, load_config
from core.host.lock import InstanceLock
from core.storage import fast_open
from core.storage.layout import SCHEMA_VERSION, writable
from core.text.words import plural

if TYPE_CHECKING:  # the services are imported where first used: a faster start-up
    from core.services.authoring import AuthoringService
    from core.services.browse.schedule import ScheduleService
    from core.services.browse.service import BrowseService
    from core.services.curation import CurationService
    from core.services.home import HomeService
    from core.services.library import LibraryService
    from core.services.preferences import Preferences
    from core.services.review.service import ReviewService
    from core.services.search.service import SearchService
    from core.services.stats import StatsService
    from core.services.triage import TriageService
    from core.services.undo import UndoService

R = TypeVar("R", covariant=True)


class Handled(Protocol[R]):
    """What `Services.run` takes: a typed command (core/services/commands `Command[R]`, which
    names this module's Services; named here by its shape, so the two do not import each other)."""

    def handle(self, services: Services) -> R: ...


@dataclass
class Services:
    """The use cases over one open library, each built on first use (with its imports: a faster
    start-up) and kept. Every service reads the same `settings`, so a new configuration
    (`services.config = ...`, what the Settings screen does) reaches them all."""

    settings: Settings
    data_dir: Path
    clock: Clock
    lock: InstanceLock | None = None
    notices: list[str] = field(default_factory=list)

    @property
    def config(self) -> Config:
        return self.settings.current

    @config.setter
    def config(self, config: Config) -> None:
        self.settings.current = config

    # Python 3.11's cached_property builds under a lock, so a worker and the UI thread asking at
    # once get the same service (3.12 dropped the lock: the services are stateless but review,
    # whose first use is on the UI thread, when its screen opens).
    @cached_property
    def preferences(self) -> Preferences:
        """Changing a setting: validated, saved to config.toml, in use at once."""
        from core.services.preferences import Preferences

        return Preferences(self.settings)

    @cached_property
    def home(self) -> HomeService:
        from core.services.home import HomeService

        return HomeService(self.stats, self.library, self.review)

    @cached_property
    def triage(self) -> TriageService:
        from core.services.triage import TriageService

        return TriageService(self.library)

    @cached_property
    def library(self) -> LibraryService:
        from core.services.library import LibraryService

        return LibraryService(self.settings, self.clock.epoch)

    @cached_property
    def curation(self) -> CurationService:
        from core.services.curation import CurationService

        return CurationService(self.clock.epoch)

    @cached_property
    def authoring(self) -> AuthoringService:
        from core.services.authoring import AuthoringService

        return AuthoringService(self.clock.epoch)

    @cached_property
    def review(self) -> ReviewService:
        from core.services.review.service import ReviewService

        return ReviewService(self.settings, self.clock)

    @cached_property
    def undo(self) -> UndoService:
        """Undo in every screen: the one journal read backwards (core/services/undo.py)."""
        from core.services.undo import UndoService

        return UndoService(self.clock, self.review)

    @cached_property
    def stats(self) -> StatsService:
        from core.services.stats import StatsService

        return StatsService(self.settings, self.clock)

    @cached_property
    def browse(self) -> BrowseService:
        from core.services.browse.service import BrowseService

        return BrowseService(self.settings, self.clock)

    @cached_property
    def schedule(self) -> ScheduleService:
        from core.services.browse.schedule import ScheduleService

        return ScheduleService(self.settings, self.clock)

    @cached_property
    def search(self) -> SearchService:
        from core.services.search.service import SearchService

        return SearchService(self.settings, self.clock.epoch)

    def run(self, command: Handled[R]) -> R:
        """The one way to change the library: a typed command's handler (core/services/commands).
        In the app it runs in a worker named by the command (tui/runner.py `run`)."""
        return command.handle(self)

    def end_thread_work(self) -> None:
        """Close this thread's own database connection. SQLite connections are per thread and
        keep the settings they were opened with; Textual's worker threads are a reused pool, so a
        kept connection could outlive a reopened library or a changed pragma. ~1 ms to reopen."""
        if fast_open.storage_loaded():  # (else nothing has read the library)
            from core.storage.db import db

            if not db.is_closed():
                db.close()

    def close(self) -> None:
        if fast_open.storage_loaded():
            from core.storage import checkpoint
            from core.storage.db import db

            checkpoint.wait()  # a bulk action's WAL copied back before the process goes
            if not db.is_closed():
                db.close()
        fast_open.forget()  # opened, never read: nothing binds to it later
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def use_data_dir(data_dir: Path | None) -> None:
    """Point MEMORYRUSH_HOME at `data_dir` (the --data-dir option) for this process."""
    if data_dir is not None:
        os.environ[paths.ENV_HOME] = str(Path(data_dir).expanduser().resolve())


def library_config(data_dir: Path | None = None) -> Config:
    """The library's config, the library left unopened: for what reads its file as it is (a
    backup beside an older app that has it open: opening it here would have to upgrade it)."""
    use_data_dir(data_dir)
    return load_config(paths.config_path())


def open_services(
    data_dir: Path | None = None,
    *,
    config: Config | None = None,
    clock: Clock | None = None,
    exclusive: bool = True,
) -> Services:
    """Open the library: config, single-instance lock (when `exclusive`), database, services.
    A library file that needs nothing done is only checked here, and bound to the database by
    its first read (core/storage/fast_open.py: peewee is not loaded before the app's first frame).

    Raises ConfigError / AlreadyRunning / StorageError with a message for the user.
    """
    use_data_dir(data_dir)
    cfg = config if config is not None else load_config(paths.config_path())
    home = paths.data_dir()
    lock = InstanceLock(paths.lock_path()).acquire() if exclusive else None
    services = Services(Settings(cfg), home, clock or Clock(), lock)
    if fast_open.ready(paths.database_path(), READER_VERSION):
        return services  # nothing to make, migrate or do first: bound by its first read
    try:
        upgrade = None if exclusive else _upgrade_lock()
        try:
            _open_fully(services, exclusive=exclusive)
        finally:
            if upgrade is not None:
                upgrade.release()
    except BaseException:
        services.close()
        raise
    return services


def _upgrade_lock() -> InstanceLock | None:
    """A command that reads beside the app (`exclusive=False`: search, session, list) upgrades an
    older library only with it to itself: under a running older MemoryRush, which goes on
    writing the old way (none of the upkeep of what the upgrade added), it is refused instead. A
    library it cannot write is left to the full open, which says so."""
    database = paths.database_path()
    if not fast_open.older_schema(database) or not writable(database):
        return None
    lock = InstanceLock(paths.lock_path())
    try:
        return lock.acquire()
    except AlreadyRunning:
        raise AlreadyRunning(
            f"this library needs upgrading to schema {SCHEMA_VERSION}, and the upgrade needs it to "
            f"itself: another MemoryRush{lock.holder()}, an older one, has it open; close that one, then run this again"
        ) from None


def _open_fully(services: Services, *, exclusive: bool) -> None:
    """Open the library with every table: create, migrate (a backup first) or refuse it, then
    what start-up does first (purge an old trash, re-render older readers' articles)."""
    from core.storage.db import reading
    from core.storage.schema import open_database

    database = paths.database_path()
    was_empty = database.is_file() and database.stat().st_size == 0
    connection = open_database(database, backups=paths.backups_dir()).connection()
    if was_empty:
        services.notices.append(
            f"{database} was an empty file (0 bytes), so a new library was started in it; if your "
            f"cards were there, restore a copy from {paths.backups_dir()}"
        )
    if not exclusive:
        return
    with reading():
        trash, older = (
            fast_open.trash_waiting(connection),
            fast_open.older_readers_waiting(connection, READER_VERSION),
        )
    purged = services.curation.purge_expired_trash() if trash else 0
    # articles of an older library shown as reader text, their units re-anchored (formats)
    refreshed = services.library.refresh_readers() if older else None
    if purged:
        services.notices.append(f"purged {plural(purged, 'unit')} trashed more than 30 days ago")
    if refreshed:
        services.notices.append(refreshed)
