"""`memoryrush process`: parse -> extract -> validate -> artifact JSON, without the library."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from core.domain import ProcessingArtifact
from core.domain.artifact import artifact_to_dict
from core.domain.errors import MemoryRushError
from core.extraction.base import Extractor
from core.ingest import read_document
from core.services.export.files import atomic_path
from core.services.export.guard import ExportError
from core.services.pipeline import run_extraction
from core.text.words import plural


@dataclass(frozen=True, slots=True)
class ProcessOutcome:
    path: str
    ok: bool
    message: str
    artifact_path: str | None = None
    artifact: ProcessingArtifact | None = None


def artifact_file_name(source: Path) -> str:
    safe = re.sub(r"[^\w.-]", "_", source.name)[:120]
    return f"{safe}.json"


def process_one(
    path: Path, extractor: Extractor, *, encoding: str | None, max_bytes: int
) -> ProcessingArtifact:
    started = time.perf_counter()
    document = read_document(path, encoding=encoding, max_bytes=max_bytes)
    parsed = time.perf_counter()
    artifact = run_extraction(document, extractor)
    artifact.timings["parse_s"] = round(parsed - started, 6)
    artifact.timings["total_s"] = round(time.perf_counter() - started, 6)
    return artifact


def process_paths(
    paths: Iterable[Path],
    out_dir: Path,
    extractor: Extractor,
    *,
    encoding: str | None = None,
    max_bytes: int,
    report: Callable[[ProcessOutcome], None] | None = None,
) -> list[ProcessOutcome]:
    """Process each input into `out_dir`; a failing input is reported and the others still
    processed. Raises MemoryRushError only when `out_dir` itself cannot be made."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MemoryRushError(f"cannot create the output folder {out_dir}: {exc.strerror or exc}") from None
    outcomes: list[ProcessOutcome] = []
    used: set[str] = set()
    for path in paths:
        outcome = _process_to_file(path, out_dir, extractor, encoding, max_bytes, used)
        outcomes.append(outcome)
        if report:
            report(outcome)
    return outcomes


def _process_to_file(
    path: Path, out_dir: Path, extractor: Extractor, encoding: str | None, max_bytes: int, used: set[str]
) -> ProcessOutcome:
    try:
        artifact = process_one(path, extractor, encoding=encoding, max_bytes=max_bytes)
    except MemoryRushError as exc:
        return ProcessOutcome(str(path), False, str(exc))
    except Exception as exc:  # a bug or an unexpected fault: reported, the next input still runs
        return ProcessOutcome(str(path), False, f"unexpected error: {exc!r}")
    base = artifact_file_name(path)
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base.removesuffix('.json')}-{n}.json"
    used.add(name)
    target = out_dir / name
    try:
        with atomic_path(target) as partial:  # never over the library's own files
            text = json.dumps(artifact_to_dict(artifact), ensure_ascii=False, indent=1)
            partial.write_text(text, encoding="utf-8")
    except ExportError as exc:
        return ProcessOutcome(str(path), False, str(exc))
    units = len(artifact.output.memory_units)
    report = artifact.validation_report
    state = "valid" if report.ok else plural(len(report.issues), "validation issue")
    note = f"; {artifact.count_notice.text()}" if artifact.count_notice else ""
    return ProcessOutcome(str(path), True, f"{plural(units, 'unit')}, {state}{note}", str(target), artifact)
