"""One call for every export format, for the app's Export dialog (the CLI adds its own options).

    run_export(services, "anki", Path("out.apkg"), ExportFilter(), progress=...) -> ExportResult
    export_if_any(...)  -> the same, or why nothing was written (no confirmed unit: the dialog)

Formats: anki, anki-history (with the schedule and review log), markdown (a folder), csv, json.
Each module is imported when its format is asked for (genanki only for Anki).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.domain.export import ExportFilter, ExportResult
from core.services.bootstrap import Services

FORMATS: dict[str, str] = {
    "anki": "Anki package (.apkg)",
    "anki-history": "Anki package with schedule and review history",
    "markdown": "Markdown folder (Obsidian)",
    "csv": "CSV of cards",
    "json": "JSON, the whole library",
}
SUFFIX = {"anki": ".apkg", "anki-history": ".apkg", "markdown": "", "csv": ".csv", "json": ".json"}
Progress = Callable[[int, int], None]


def anki_schedule(services: Services):  # type: ignore[no-untyped-def]
    """Our review settings as an Anki package carries them: on each card's row (retention,
    decay) and in the deck preset (FSRS parameters, retention, steps, daily limits)."""
    from core.services.export.anki_settings import Schedule

    c = services.config
    policy = services.review.policy()
    return Schedule(
        c.desired_retention,
        c.pinned_retention,
        tuple(policy.parameters),
        tuple(policy.learning_steps),
        tuple(policy.relearning_steps),
        c.new_per_day,
        c.max_reviews_per_day,
        policy.maximum_interval,
    )


def units_to_export(fmt: str, f: ExportFilter) -> int | None:
    """How many units an export in `fmt` takes (None: JSON, the whole library, always written).
    With none, the Export dialog writes nothing (an empty .apkg said nothing to Anki)."""
    if fmt == "json":
        return None
    from core.storage import export as export_repo

    return export_repo.count_units(f)[0]


def run_export(
    services: Services, fmt: str, target: Path, f: ExportFilter, *, progress: Progress | None = None
) -> ExportResult:
    now = services.clock.epoch()
    if fmt in ("anki", "anki-history"):
        from core.services.export.anki import export_anki

        history = fmt == "anki-history"
        return export_anki(
            target, f, now=now, with_history=history, schedule=anki_schedule(services), progress=progress
        )
    if fmt == "markdown":
        from core.services.export.markdown import export_markdown

        return export_markdown(target, f, progress=progress)
    if fmt == "csv":
        from core.services.export.csv_export import export_csv

        return export_csv(target, f, progress=progress)
    if fmt == "json":
        from core.services.export.library_json import export_json

        return export_json(target, now=now, config=services.config, progress=progress)
    raise ValueError(f"unknown export format {fmt!r}; one of {', '.join(FORMATS)}")


def export_if_any(
    services: Services, fmt: str, target: Path, f: ExportFilter, *, progress: Progress | None = None
) -> ExportResult | str:
    """The Export dialog's export: `run_export`, unless there is no confirmed unit to export,
    when nothing is written (an empty package teaches nothing) and the sentence says why."""
    if units_to_export(fmt, f) == 0:
        where = "this article has" if f.article_ids else "the library has"
        return (
            f"Nothing to export: {where} no confirmed unit yet (accept some in Triage, t). "
            "Nothing was written."
        )
    return run_export(services, fmt, target, f, progress=progress)
