"""The one place storage is wired to services. CLI, App and tests all build through here."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core import paths
from core.clock import Clock
from core.config import Config, load_config
from core.extraction.base import Extractor, make_extractor
from core.lock import InstanceLock
from core.services.curation import CurationService
from core.services.library import LibraryService
from core.services.review import ReviewService
from core.services.search import SearchService, make_search
from core.services.stats import StatsService
from core.storage.db import db, open_database


@dataclass
class Services:
    config: Config
    data_dir: Path
    clock: Clock
    library: LibraryService
    curation: CurationService
    review: ReviewService
    stats: StatsService
    search: SearchService
    lock: InstanceLock | None = None
    notices: list[str] = field(default_factory=list)

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        if name == "config":  # new settings reach every service that reads them
            for part in ("library", "review", "stats"):
                service = self.__dict__.get(part)
                if service is not None:
                    service.config = value

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


def extractor_factory(config: Config):  # type: ignore[no-untyped-def]
    """A function name|None -> Extractor configured from settings."""

    def make(name: str | None) -> Extractor:
        chosen = name or config.extractor
        if chosen == "ollama":
            return make_extractor(
                "ollama",
                host=config.ollama_host or None,
                model=config.ollama_model,
                timeout=config.ollama_timeout_s,
                allow_remote=config.ollama_allow_remote,
            )
        return make_extractor(chosen)

    return make


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
    try:
        open_database(paths.database_path(), backups=paths.backups_dir())
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    clk = clock or Clock()
    services = Services(
        config=cfg,
        data_dir=home,
        clock=clk,
        library=LibraryService(cfg, extractor_factory(cfg), clk.epoch),
        curation=CurationService(clk.epoch),
        review=ReviewService(cfg, clk),
        stats=StatsService(cfg, clk),
        search=make_search(cfg, clk.epoch),
        lock=lock,
    )
    if exclusive:
        try:
            purged = services.curation.purge_expired_trash()
        except BaseException:
            services.close()
            raise
        if purged:
            services.notices.append(f"purged {purged} units trashed more than 30 days ago")
    return services
