"""Library use cases: import articles, list and read them."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from core.domain import (
    READER_VERSION,
    AnchorState,
    ArticleInfo,
    ImportOutcome,
    ProcessingArtifact,
    Renamed,
    SourceDocument,
    SourceParagraph,
    StoredUnit,
)
from core.domain.errors import Cancelled, MemoryRushError
from core.domain.stop import StopFlag, check_stop
from core.host.config import Config, Settings
from core.services.extractors import configured_extractor
from core.services.planning import Plan, plan
from core.storage import library as library_repo
from core.storage import titles as titles_repo
from core.text import sanitize
from core.text.words import plural

if TYPE_CHECKING:  # reading and extraction are imported where used: a faster start-up
    from core.extraction.base import Extractor
    from core.services.sync import SyncReport

Progress = Callable[[int, int, ImportOutcome], None]
MAX_TITLE = 300  # characters of a title the reader gives an article


@dataclass
class LibraryService:
    settings: Settings
    clock: Callable[[], int]

    @property
    def config(self) -> Config:
        return self.settings.current

    # --- import ---------------------------------------------------------------------------

    def import_paths(
        self,
        paths: Iterable[Path],
        *,
        extractor: str | None = None,
        encoding: str | None = None,
        progress: Progress | None = None,
        stop: StopFlag | None = None,
    ) -> list[ImportOutcome]:
        """Import files and folders (recursively by suffix), one transaction per article.

        Each file gets an outcome (imported / already / new_version / refused with a reason);
        one bad file never stops the others. Files of another type inside the folders come
        first, as `skipped` with the reason (progress reports them at 0 done). `stop` (a
        threading.Event the caller sets) is read between files and inside each file's
        extraction: once it is set the file in progress is abandoned unsaved and the outcomes
        so far are returned.
        """
        from core.ingest import scan_inputs

        scan = scan_inputs(paths)
        files = scan.files
        ex = configured_extractor(self.config, extractor)
        outcomes: list[ImportOutcome] = []
        for path, reason in scan.skipped:
            outcome = ImportOutcome(str(path), "skipped", reason)
            outcomes.append(outcome)
            if progress is not None:
                progress(0, len(files), outcome)
        for i, path in enumerate(files):
            try:
                check_stop(stop)
                outcome = self.import_file(path, ex, encoding=encoding, stop=stop)
            except Cancelled:
                break
            outcomes.append(outcome)
            if progress is not None:
                progress(i + 1, len(files), outcome)
        return outcomes

    def import_file(
        self, path: Path, extractor: Extractor, *, encoding: str | None = None, stop: StopFlag | None = None
    ) -> ImportOutcome:
        """Import one file; never raises for a bad file (the outcome says why it was refused).
        Raises Cancelled when `stop` is set before the file is stored (nothing is written)."""
        from core.ingest import read_document
        from core.ingest.reader import reader_is_current
        from core.services.pipeline import run_extraction
        from core.storage import revision

        max_bytes = int(self.config.max_file_mb * 1024 * 1024)
        try:
            started = time.perf_counter()
            document = read_document(path, encoding=encoding, max_bytes=max_bytes)
            parsed = time.perf_counter()
            prior = revision.article_at_path(document.source_path)
            existing = library_repo.existing_article_id(document.document_id)
            if existing is not None and (
                prior is None or prior[0] != existing or reader_is_current(str(path), prior[1])
            ):
                return ImportOutcome(str(path), "already", "already imported", existing)
            if prior is not None:  # a known source whose text (or reader) changed: update it in place
                return self._revise(path, prior[0], document, extractor, READER_VERSION)
            artifact = run_extraction(document, extractor, stop)
            artifact.timings["parse_s"] = round(parsed - started, 6)
            check_stop(stop)
            return self._store(path, artifact)
        except Cancelled:
            raise
        except MemoryRushError as exc:
            return ImportOutcome(str(path), "refused", str(exc))
        except Exception as exc:  # a bug or an unexpected fault: reported, the next file still runs
            return ImportOutcome(str(path), "refused", f"unexpected error, nothing saved: {exc!r}")

    def _revise(
        self, path: Path, article_id: int, document: SourceDocument, extractor: Extractor, reader_version: int
    ) -> ImportOutcome:
        from core.services.revise import revise

        return revise(
            path, article_id, document, extractor, reader_version, config=self.config, now=self.clock()
        )

    def reimport(self, article_id: int, *, extractor: str | None = None) -> ImportOutcome:
        """Read an article's source file again (`memoryrush reimport`); updates it in place."""
        info = library_repo.get_article(article_id)
        if info is None:
            raise MemoryRushError(f"article {article_id} does not exist")
        source = Path(info.source_path)
        if not source.exists():
            return ImportOutcome(
                info.source_path, "refused", "the source file is gone (moved or deleted?)", article_id
            )
        return self.import_file(source, configured_extractor(self.config, extractor), encoding=None)

    def sync(
        self,
        *,
        extractor: str | None = None,
        progress: Progress | None = None,
        stop: StopFlag | None = None,
    ) -> SyncReport:
        """Read the followed folders again (core.services.sync): new files imported, changed ones
        updated in place, deleted ones flagged "source missing". Raises when none is followed."""
        from core.services.sync import SyncReport, look_again

        found = look_again(self.config.follow)
        outcomes = self.import_paths(found.present, extractor=extractor, progress=progress, stop=stop)
        if stop is not None and stop.is_set():
            return SyncReport(tuple(outcomes), absent_folders=found.absent)
        return found.report(outcomes, self.clock())

    def refresh_readers(self) -> str | None:
        """Articles read by an older reader rendered again and re-anchored (core.services.refresh);
        called when the library opens. Returns a line for the start-up notices, or None."""
        from core.services.refresh import refresh_readers

        return refresh_readers(self.clock, int(self.config.max_file_mb * 1024 * 1024)).message

    def plan(self, artifact: ProcessingArtifact) -> Plan:
        """Which units to store (grounded), auto-accept and park (core.services.planning)."""
        return plan(artifact, self.config)

    def _store(self, path: Path, artifact: ProcessingArtifact) -> ImportOutcome:
        plan = self.plan(artifact)
        artifact, keep, auto, low, dropped = plan.artifact, plan.keep, plan.auto, plan.low, plan.dropped
        stored = library_repo.store_processed(
            artifact.document, plan.new_units(), now=self.clock(), reader_version=READER_VERSION
        )
        if stored.already:
            return ImportOutcome(str(path), "already", "already imported", stored.article_id)
        msg = plural(len(keep), "proposed unit") + (f", {dropped} ungrounded dropped" if dropped else "")
        if stored.version > 1:
            msg = f"new version {stored.version} (content changed); " + msg
        if auto:
            msg += f", {len(auto)} auto-accepted"
        if low:
            msg += f", {len(low)} low confidence"
        for notice in artifact.notices:
            msg += f"; {notice}"
        status: Literal["imported", "new_version"] = "imported" if stored.version == 1 else "new_version"
        return ImportOutcome(str(path), status, msg, stored.article_id, len(keep), artifact.count_notice)

    # --- reading --------------------------------------------------------------------------

    def articles(self, limit: int | None = None, offset: int = 0) -> list[ArticleInfo]:
        return library_repo.list_articles(limit, offset)

    def article_count(self) -> int:
        return library_repo.count_articles()

    def article(self, article_id: int, *, deleted_too: bool = True) -> ArticleInfo | None:
        """The article (`deleted_too` False: not when it waits in the trash, deleted)."""
        return library_repo.get_article(article_id, deleted_too=deleted_too)

    def find_articles(self, ref: str) -> list[ArticleInfo]:
        return library_repo.find_articles(ref)

    def paragraphs(self, article_id: int, start: int = 0, limit: int | None = None) -> list[SourceParagraph]:
        return library_repo.paragraphs(article_id, start, limit)

    def paragraph(self, article_id: int, paragraph_id: str) -> SourceParagraph | None:
        return library_repo.paragraph_by_id(article_id, paragraph_id)

    def evidence(self, unit: StoredUnit) -> list[tuple[SourceParagraph, tuple[str, ...]]]:
        """The unit's evidence paragraphs with the quotes in each, in the order cited (a
        paragraph no longer there is left out)."""
        found = [
            (self.paragraph(unit.article_id, pid), quotes)
            for pid, quotes in unit.quotes_by_paragraph().items()
        ]
        return [(para, quotes) for para, quotes in found if para is not None]

    def units(
        self,
        article_id: int | None = None,
        statuses: Sequence[str] | None = None,
        memory_type: str | None = None,
        low_confidence: bool | None = None,
        limit: int | None = None,
        offset: int = 0,
        *,
        least_confident_first: bool = False,
        source_changed: bool = False,
    ) -> list[StoredUnit]:
        """Units (of one article, statuses, type; `low_confidence` True/False: only those parked
        below the triage floor at import / only the others), in reading order or least confident
        first; `source_changed`: only those whose source changed and that wait for the reader to
        keep or retire them."""
        return library_repo.units(
            article_id,
            statuses,
            memory_type,
            low_confidence,
            limit,
            offset,
            anchor=AnchorState.CHANGED.value if source_changed else None,
            least_confident_first=least_confident_first,
        )

    def unit(self, unit_id: int) -> StoredUnit | None:
        return library_repo.unit(unit_id)

    def unit_count(self, status: str | None = None, *, source_changed: bool = False) -> int:
        return library_repo.count_units(status, anchor=AnchorState.CHANGED.value if source_changed else None)

    def import_notices(self, article_id: int) -> tuple[str, ...]:
        """What reading and extracting the article's latest version had to say: why it got no
        unit or few for its length, bytes replaced, an extractor's fallback (Triage shows them)."""
        return library_repo.artifact_notices(article_id)

    def articles_with(self, status: str) -> int:
        """Articles with units of this status ("proposed": the articles Triage has work in)."""
        return library_repo.count_articles_with(status)

    def summary(self, article_id: int) -> dict[str, object] | None:
        return library_repo.artifact_json(article_id)

    # --- the reader's own title ---------------------------------------------------------

    def rename_article(self, article_id: int, title: str) -> Renamed:
        """Give an article the reader's title (one clean line: controls out, spaces folded, at
        most MAX_TITLE characters); "" gives back the title its source has. A reimport keeps
        the reader's title; renaming again undoes it. Raises when the article does not exist
        or waits in the trash."""
        clean = " ".join(sanitize(title, single_line=True).split())[:MAX_TITLE].rstrip()
        return titles_repo.rename_article(article_id, clean)

    def reading_position(self, article_id: int) -> int:
        return library_repo.reading_position(article_id)

    def remember_position(self, article_id: int, position: int) -> None:
        library_repo.set_reading_position(article_id, position)
