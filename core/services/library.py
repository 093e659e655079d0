"""Library use cases: import articles, list and read them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.config import Config
from core.domain import (
    ArticleInfo,
    ImportOutcome,
    ProcessingArtifact,
    SourceParagraph,
    StoredUnit,
    ValidationIssue,
)
from core.errors import MemoryRushError, StorageError
from core.extraction.base import Extractor
from core.ingest import iter_input_files
from core.services.processing import process_one
from core.storage import library_repo

# Issues that make a unit ungrounded: such a unit is never stored as a proposal.
GROUNDING_CODES = frozenset(
    {"unknown_paragraph", "quote_not_found", "no_evidence", "empty_quote", "non_prose_evidence", "empty_content", "unknown_type"}
)

Progress = Callable[[int, int, ImportOutcome], None]


@dataclass
class LibraryService:
    config: Config
    extractor_factory: Callable[[str | None], Extractor]
    clock: Callable[[], int]

    # --- import ---------------------------------------------------------------------------

    def import_paths(
        self,
        paths: Iterable[Path],
        *,
        extractor: str | None = None,
        encoding: str | None = None,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> list[ImportOutcome]:
        """Import files and folders (recursively by suffix), one transaction per article.

        Each file gets an outcome (imported / already / new_version / refused with a reason);
        one bad file never stops the others. `cancelled` is checked between files.
        """
        files = iter_input_files(paths)
        ex = self.extractor_factory(extractor)
        outcomes: list[ImportOutcome] = []
        for i, path in enumerate(files):
            if cancelled is not None and cancelled():
                break
            outcome = self.import_file(path, ex, encoding=encoding)
            outcomes.append(outcome)
            if progress is not None:
                progress(i + 1, len(files), outcome)
        return outcomes

    def import_file(self, path: Path, extractor: Extractor, *, encoding: str | None = None) -> ImportOutcome:
        max_bytes = int(self.config.max_file_mb * 1024 * 1024)
        try:
            artifact = process_one(path, extractor, encoding=encoding, max_bytes=max_bytes)
            existing = library_repo.find_by_document_id(artifact.document.document_id)
            if existing is not None:
                return ImportOutcome(str(path), "already", "already imported", existing.id)
            return self._store(path, artifact)
        except StorageError as exc:
            return ImportOutcome(str(path), "refused", str(exc))
        except MemoryRushError as exc:
            return ImportOutcome(str(path), "refused", str(exc))

    def _store(self, path: Path, artifact: ProcessingArtifact) -> ImportOutcome:
        per_unit: dict[int, list[ValidationIssue]] = {}
        for issue in artifact.validation_report.issues:
            idx = issue.unit_index
            if idx is not None:
                per_unit.setdefault(idx, []).append(issue)
        units = artifact.output.memory_units
        keep = [i for i in range(len(units)) if not any(x.code in GROUNDING_CODES for x in per_unit.get(i, []))]
        auto: set[int] = set()
        low: set[int] = set()
        for i in keep:
            valid = not any(x.severity == "error" for x in per_unit.get(i, []))
            conf = units[i].confidence
            if self.config.auto_accept_threshold > 0 and valid and conf >= self.config.auto_accept_threshold:
                auto.add(i)
            elif self.config.low_confidence_floor > 0 and conf < self.config.low_confidence_floor:
                low.add(i)
        article_id, version, _ = library_repo.store_processed(
            artifact.document,
            artifact,
            now=self.clock(),
            unit_issues=per_unit,
            keep_units=keep,
            auto_accepted=frozenset(auto),
            low_confidence=frozenset(low),
        )
        status = "imported" if version == 1 else "new_version"
        dropped = len(units) - len(keep)
        msg = f"{len(keep)} proposed units" + (f", {dropped} ungrounded dropped" if dropped else "")
        if version > 1:
            msg = f"new version {version} (content changed); " + msg
        if auto:
            msg += f", {len(auto)} auto-accepted"
        for notice in artifact.notices:
            msg += f"; {notice}"
        return ImportOutcome(str(path), status, msg, article_id, len(keep))

    # --- reading --------------------------------------------------------------------------

    def articles(self, limit: int | None = None, offset: int = 0) -> list[ArticleInfo]:
        return library_repo.list_articles(limit, offset)

    def article_count(self) -> int:
        return library_repo.count_articles()

    def article(self, article_id: int) -> ArticleInfo | None:
        return library_repo.get_article(article_id)

    def find_articles(self, ref: str) -> list[ArticleInfo]:
        return library_repo.find_articles(ref)

    def paragraphs(self, article_id: int, start: int = 0, limit: int | None = None) -> list[SourceParagraph]:
        return library_repo.paragraphs(article_id, start, limit)

    def paragraph(self, article_id: int, paragraph_id: str) -> SourceParagraph | None:
        return library_repo.paragraph_by_id(article_id, paragraph_id)

    def units(
        self,
        article_id: int | None = None,
        statuses: Sequence[str] | None = None,
        memory_type: str | None = None,
        low_confidence: bool | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[StoredUnit]:
        return library_repo.units(article_id, statuses, memory_type, low_confidence, limit, offset)

    def unit(self, unit_id: int) -> StoredUnit | None:
        return library_repo.unit(unit_id)

    def unit_count(self, status: str | None = None) -> int:
        return library_repo.count_units(status)

    def summary(self, article_id: int) -> dict[str, object] | None:
        return library_repo.artifact_json(article_id)

    def reading_position(self, article_id: int) -> int:
        return library_repo.reading_position(article_id)

    def remember_position(self, article_id: int, position: int) -> None:
        library_repo.set_reading_position(article_id, position)
