"""Articles read by an older reader, brought up to date when the library opens.

The schema migration (core/storage/models.py, schema 2) adds the columns; this is its data
half. Every article whose reader version is older than READER_VERSION is looked at once:

- a format whose reader did not change since (.txt) is only marked current (one write);
- a Markdown article is rendered again to reader text: from its file when the file is still
  there with the same text (the same result as importing it today), else from the blocks the
  library holds (core.ingest.legacy). Its units are re-anchored (core.services.reanchor) and
  stored (core.storage.revision) in one transaction per article: each old quote is looked for as it was, then as today's
  reader renders it ("**Stability**: ..." -> "Stability: ..."), then fuzzily; units whose
  quotes are all found keep everything, the others are marked "source changed". The words
  units copied from the old text (content, questions, answers) are rendered too, unless the
  reader edited them.

A file that changed since it was imported is not imported here (that is `reimport`'s job,
which may extract new proposals); the refresh only changes how the same words are shown.
An article that cannot be refreshed stays as it was and is tried again at the next open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.domain import READER_VERSION, SourceDocument, StoredUnit
from core.domain.errors import MemoryRushError
from core.services.reanchor import reanchored
from core.storage import library as library_repo
from core.storage import revision
from core.storage.db import write_transaction


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What a refresh did (all zeros: nothing was stale)."""

    articles: int = 0  # articles rendered again
    marked: int = 0  # articles only marked current (their reader did not change)
    kept: int = 0  # units whose every quote was found again
    changed: int = 0  # units marked "source changed"
    failed: tuple[str, ...] = ()  # "title: reason" for articles left as they were

    @property
    def message(self) -> str | None:
        """One line for the start-up notices, or None when there was nothing to refresh."""
        if not (self.articles or self.failed):
            return None
        parts = [
            f"brought {self.articles} article{'s' if self.articles != 1 else ''} up to date with "
            f"the new readers (Markdown shown as text): {self.kept} units found again"
        ]
        if self.changed:
            parts.append(f"{self.changed} marked source changed (keep or retire them in Triage)")
        if self.failed:
            parts.append(f"{len(self.failed)} left as they were, tried again next time: {self.failed[0]}")
        return "; ".join(parts)


def refresh_readers(now: Callable[[], int], max_bytes: int) -> Refreshed:
    """Bring every article read by an older reader up to date (see the module docstring)."""
    from core.ingest.reader import reader_is_current

    stale = revision.stale_articles(READER_VERSION)
    current = [article_id for article_id, path, version in stale if reader_is_current(path, version)]
    if current:
        revision.set_reader_version(current, READER_VERSION)
    articles = kept = changed = 0
    failed: list[str] = []
    for article_id, path, version in stale:
        if reader_is_current(path, version):
            continue
        try:
            stored = revision.stored_document(article_id)
            if stored is None:
                continue
            units = library_repo.units(article_id)
            document = _reread(stored, max_bytes)
            with write_transaction():
                moves, _ = reanchored(article_id, document, variants=_variants(units))
                done = revision.revise_article(
                    article_id,
                    document,
                    moves,
                    now=now(),
                    reader_version=READER_VERSION,
                    unit_texts=_unit_texts(units),
                )
        except MemoryRushError as exc:
            failed.append(f"{Path(path).name}: {exc}")
            continue
        articles += 1
        kept += done.kept
        changed += len(done.changed)
    return Refreshed(articles, len(current), kept, changed, tuple(failed))


def _reread(stored: SourceDocument, max_bytes: int) -> SourceDocument:
    """Today's reading of the same words: the file when it still holds them, else the blocks."""
    from core.ingest import read_document
    from core.ingest.legacy import rerender_markdown

    source = Path(stored.source_path)
    if source.is_file():
        try:
            fresh = read_document(source, encoding=stored.encoding, max_bytes=max_bytes)
        except MemoryRushError:
            fresh = None
        if fresh is not None and fresh.content_hash == stored.content_hash:
            return fresh
    return rerender_markdown(stored)


def _variants(units: Sequence[StoredUnit]) -> dict[str, list[str]]:
    """Each quote the units cite, as today's Markdown reader shows it."""
    from core.ingest.legacy import quote_variants

    out: dict[str, list[str]] = {}
    for unit in units:
        for e in unit.evidence:
            if e.quote not in out:
                out[e.quote] = quote_variants(e.quote)
    return out


def _unit_texts(units: Sequence[StoredUnit]) -> dict[int, revision.UnitText]:
    """The words of units the reader never edited, with the Markdown they copied rendered."""
    from core.ingest.legacy import unit_text

    out: dict[int, revision.UnitText] = {}
    for unit in units:
        if unit.edited:
            continue  # the reader's own words stay exactly theirs
        content = unit_text(unit.content)
        questions = tuple((q.id, unit_text(q.question), unit_text(q.expected_answer)) for q in unit.questions)
        if content != unit.content or any(
            (new_q, new_a) != (q.question, q.expected_answer)
            for (_, new_q, new_a), q in zip(questions, unit.questions, strict=True)
        ):
            out[unit.id] = revision.UnitText(content, questions)
    return out
