"""`memoryrush sync`: the folders the config follows ([library] follow), read again.

Every importable file in a followed folder goes through the import (one transaction per
article): a new file is imported, a changed one updated in place (its units re-anchored), an
unchanged one left alone. An article whose file is no longer there is flagged "source missing"
(never deleted: its units and cards stay, and the flag goes when the file comes back). A
followed folder that is not there at all (an unmounted drive) is reported and its articles are
left unflagged: a missing folder is not a deleted file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.domain import ImportOutcome
from core.domain.errors import MemoryRushError
from core.storage import revision

NOTHING_FOLLOWED = 'no folders are followed: add them to the config, e.g. [library] follow = ["~/notes"]'


@dataclass(frozen=True, slots=True)
class SyncReport:
    # one per file found in the followed folders; a file no reader takes is "skipped"
    outcomes: tuple[ImportOutcome, ...]
    missing: tuple[str, ...] = ()  # source paths newly flagged: the file is gone
    back: tuple[str, ...] = ()  # source paths whose file is there again (flag cleared)
    absent_folders: tuple[str, ...] = ()  # followed folders that do not exist now

    @property
    def refused(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "refused")

    @property
    def skipped(self) -> int:
        """Files of another type (an image beside the notes): listed, not synced."""
        return sum(1 for o in self.outcomes if o.status == "skipped")

    @property
    def files(self) -> int:
        """The files synced: every importable file found, whatever became of it."""
        return len(self.outcomes) - self.skipped


def followed_folders(follow: tuple[str, ...]) -> list[Path]:
    """The configured folders, `~` expanded and resolved, in the order given."""
    return [Path(f).expanduser().resolve() for f in follow]


@dataclass(frozen=True, slots=True)
class Found:
    """The followed folders as they are now: those there to import, those gone."""

    present: tuple[Path, ...]
    absent: tuple[str, ...]

    def report(self, outcomes: list[ImportOutcome], now: int) -> SyncReport:
        """After the import of the present folders: articles under them whose file is gone are
        flagged "source missing" (one whose file is back, cleared), and the report says so."""
        gone: list[int] = []
        back: list[int] = []
        missing_paths: list[str] = []
        back_paths: list[str] = []
        for folder in self.present:
            for article_id, path, marked in revision.articles_under(str(folder)):
                exists = Path(path).is_file()
                if not exists and not marked:
                    gone.append(article_id)
                    missing_paths.append(path)
                elif exists and marked:
                    back.append(article_id)
                    back_paths.append(path)
        if gone:
            revision.set_source_missing(gone, now)
        if back:
            revision.set_source_missing(back, None)
        missing, came_back = tuple(dict.fromkeys(missing_paths)), tuple(dict.fromkeys(back_paths))
        return SyncReport(tuple(outcomes), missing, came_back, self.absent)


def look_again(follow: tuple[str, ...]) -> Found:
    """The followed folders (the library service imports the present ones, then `report`);
    raises when none is followed."""
    folders = followed_folders(follow)
    if not folders:
        raise MemoryRushError(NOTHING_FOLLOWED)
    return Found(tuple(f for f in folders if f.is_dir()), tuple(str(f) for f in folders if not f.is_dir()))
