"""Bringing articles in: importing files and folders (the Import screen, `memoryrush import`,
the demo's samples), reading one article's source again (`reimport`), the followed folders
again (`sync`). Each article is its own transaction (core/services/library.py), so a long
import holds the write lock a file at a time and a cancel leaves the files done so far.

`progress` is called from the command's thread after each file (the screen posts a message
from it; the CLI prints); `stop` is read between files and inside each: the Import screen's
Cancel sets it (core.domain.stop; core knows no Textual worker).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from core.services.commands import Command

if TYPE_CHECKING:
    from core.domain import ImportOutcome
    from core.domain.stop import StopFlag
    from core.services.bootstrap import Services
    from core.services.library import Progress
    from core.services.sync import SyncReport


@dataclass(frozen=True, slots=True)
class Import(Command["list[ImportOutcome]"]):
    """Files and folders (recursively by suffix) imported, one transaction per article; one
    outcome per file (imported / already / new_version / refused / skipped, with why)."""

    paths: tuple[Path, ...]
    extractor: str | None = None
    encoding: str | None = None
    progress: Progress | None = None
    stop: StopFlag | None = None
    what: ClassVar[str] = "import"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> list[ImportOutcome]:
        return services.library.import_paths(
            self.paths,
            extractor=self.extractor,
            encoding=self.encoding,
            progress=self.progress,
            stop=self.stop,
        )


@dataclass(frozen=True, slots=True)
class Reimport(Command["ImportOutcome"]):
    """An article's source file read again and the article updated in place."""

    article_id: int
    extractor: str | None = None
    what: ClassVar[str] = "reading the source again"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> ImportOutcome:
        return services.library.reimport(self.article_id, extractor=self.extractor)


@dataclass(frozen=True, slots=True)
class Sync(Command["SyncReport"]):
    """The followed folders read again: new files imported, changed ones updated in place,
    deleted ones marked "source missing"."""

    extractor: str | None = None
    progress: Progress | None = None
    stop: StopFlag | None = None
    what: ClassVar[str] = "syncing the followed folders"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> SyncReport:
        return services.library.sync(extractor=self.extractor, progress=self.progress, stop=self.stop)
