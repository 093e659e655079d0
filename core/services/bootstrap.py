"""The one place storage is wired to services. CLI, App and tests all build through here."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.host import paths
from core.host.clock import Clock
from core.host.config import Config, load_config
from core.host.lock import InstanceLock
from core.storage.db import db, open_database
from core.text.words import plural

if TYPE_CHECKING:  # the services are imported where first used: a faster start-up
    from core.extraction.base import Extractor
    from core.services.browse.schedule import ScheduleService
    from core.services.browse.service import BrowseService
    from core.services.curation import CurationService
    from core.services.library import LibraryService
    from core.services.review.service import ReviewService
    from core.services.search.service import SearchService
    from core.services.stats import StatsService


@dataclass
class Services:
    """The use cases over one open library. Each service (and its imports) is built on first use,
    from the configuration the library was opened with, then kept up to date with `config`."""

    config: Config
    data_dir: Path
    clock: Clock
    lock: InstanceLock | None = None
    notices: list[str] = field(default_factory=list)
    _opened_with: Config | None = field(default=None, repr=False)
    _building: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        if name == "config":  # new settings reach every service that reads them
            for part in ("library", "review", "stats", "browse", "schedule"):
                service = self.__dict__.get(part)
                if service is not None:
                    service.config = value
            library = self.__dict__.get("library")
            if library is not None:  # the extractor choice (offline/ollama, model, host) too
                library.extractor_factory = extractor_factory(value)  # type: ignore[arg-type]

    def _service(self, name: str) -> Any:
        service = self.__dict__.get(name)
        if service is not None:
            return service
        with self._building:  # workers may ask for a service at the same time as the UI
            service = self.__dict__.get(name)
            if service is None:
                service = _build(name, self._opened_with or self.config, self.clock)
                if name in ("library", "review", "stats", "browse", "schedule"):
                    service.config = self.config
                if name == "library":
                    service.extractor_factory = extractor_factory(self.config)
                self.__dict__[name] = service
        return service

    @property
    def library(self) -> LibraryService:
        return self._service("library")

    @property
    def curation(self) -> CurationService:
        return self._service("curation")

    @property
    def review(self) -> ReviewService:
        return self._service("review")

    @property
    def stats(self) -> StatsService:
        return self._service("stats")

    @property
    def browse(self) -> BrowseService:
        return self._service("browse")

    @property
    def schedule(self) -> ScheduleService:
        return self._service("schedule")

    @property
    def search(self) -> SearchService:
        return self._service("search")

    def close(self) -> None:
        if not db.is_closed():
            db.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def use_data_dir(data_dir: Path | None) -> None:
    """Point MEMORYRUSH_HOME at `data_dir` (the --data-dir option) for this process."""
    if data_dir is not None:
        os.environ[paths.ENV_HOME] = str(Path(data_dir).expanduser().resolve())


def _build(name: str, cfg: Config, clk: Clock) -> Any:
    """One service, built from the configuration the library was opened with."""
    if name == "library":
        from core.services.library import LibraryService

        return LibraryService(cfg, extractor_factory(cfg), clk.epoch)
    if name == "curation":
        from core.services.curation import CurationService

        return CurationService(clk.epoch)
    if name == "review":
        from core.services.review.service import ReviewService

        return ReviewService(cfg, clk)
    if name == "stats":
        from core.services.stats import StatsService

        return StatsService(cfg, clk)
    if name == "browse":
        from core.services.browse.service import BrowseService

        return BrowseService(cfg, clk)
    if name == "schedule":
        from core.services.browse.schedule import ScheduleService

        return ScheduleService(cfg, clk)
    if name == "search":
        from core.services.search.service import make_search

        return make_search(cfg, clk.epoch)
    raise AttributeError(name)


def extractor_factory(config: Config):  # type: ignore[no-untyped-def]
    """A function name|None -> Extractor configured from settings."""

    def make(name: str | None) -> Extractor:
        from core.extraction.base import make_extractor

        chosen = name or config.extractor
        if chosen == "ollama":
            return make_extractor(
                "ollama",
                host=config.ollama_host or None,
                model=config.ollama_model,
                timeout=config.ollama_timeout_s,
                deadline=config.ollama_deadline_s,
                allow_remote=config.ollama_allow_remote,
            )
        return make_extractor(chosen)

    return make


def _has_stale_articles() -> bool:
    """Whether an article was read by an older reader (one indexed read; core.services.refresh)."""
    from core.domain import READER_VERSION

    sql = "SELECT 1 FROM article WHERE reader_version < ? LIMIT 1"
    return db.execute_sql(sql, (READER_VERSION,)).fetchone() is not None


def _has_trash() -> bool:
    """Whether any unit is in the trash: without one, start-up skips the purge and its imports."""
    return db.execute_sql("SELECT 1 FROM unit WHERE status = 'trashed' LIMIT 1").fetchone() is not None


def open_services(
    data_dir: Path | None = None,
    *,
    config: Config | None = None,
    clock: Clock | None = None,
    exclusive: bool = True,
) -> Services:
    """Open the library: config, single-instance lock (when `exclusive`), database, services.

    Raises ConfigError / AlreadyRunning / StorageError with a message for the user.
    """
    use_data_dir(data_dir)
    cfg = config if config is not None else load_config(paths.config_path())
    home = paths.data_dir()
    lock = InstanceLock(paths.lock_path()).acquire() if exclusive else None
    database = paths.database_path()
    was_empty = database.is_file() and database.stat().st_size == 0
    try:
        open_database(database, backups=paths.backups_dir())
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    clk = clock or Clock()
    services = Services(
        config=cfg,
        data_dir=home,
        clock=clk,
        lock=lock,
        _opened_with=cfg,
    )
    if was_empty:
        services.notices.append(
            f"{database} was an empty file (0 bytes), so a new library was started in it; if your "
            f"cards were there, restore a copy from {paths.backups_dir()}"
        )
    if exclusive:
        try:
            purged = services.curation.purge_expired_trash() if _has_trash() else 0
            # articles of an older library shown as reader text, their units re-anchored (formats)
            refreshed = services.library.refresh_readers() if _has_stale_articles() else None
        except BaseException:
            services.close()
            raise
        if purged:
            services.notices.append(f"purged {plural(purged, 'unit')} trashed more than 30 days ago")
        if refreshed:
            services.notices.append(refreshed)
    return services
