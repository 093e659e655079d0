"""export anki / markdown / csv / json, and import-library: getting a library out and back in.

Exports read the library (they run beside the app) and write under a temporary name, renamed
when complete. import-library writes, so it takes the instance lock like import does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from core.domain.export import ExportFilter, ExportResult
from tui.cli.common import data_dir_option, fail, out, services, unit_filter_options

# the unit filters of search and Browse, shared by every export
filter_options = unit_filter_options(
    article="Only the units in this article's deck: its own, and those moved to it in Browse (repeatable).",
    status="Units with this status (repeatable; default: confirmed).",
    memory_type="Only this unit type (repeatable).",
    tag="Only units with this tag (repeatable).",
    origin="yours: units you made; extracted: units an extractor or agent proposed.",
)


def make_filter(
    article_ids: tuple[int, ...],
    statuses: tuple[str, ...],
    memory_types: tuple[str, ...],
    tags: tuple[str, ...],
    origin: str | None,
) -> ExportFilter:
    return ExportFilter(
        article_ids=article_ids,
        statuses=statuses or ("confirmed",),
        memory_types=memory_types,
        tags=tags,
        origin=origin,
    )


def _report(result: ExportResult, what: str) -> None:
    for note in result.notes:
        out(f"note: {note}", err=True)
    if not result.units and what:
        out(
            "note: no unit matched (only confirmed units by default: accept some in Triage, or pass --status)",
            err=True,
        )
    counts = [f"{result.articles} articles", f"{result.units} units"]
    if result.cards:
        counts.append(f"{result.cards} {what}")
    if result.reviews:
        counts.append(f"{result.reviews} reviews")
    out(f"wrote {result.path}: {', '.join(counts)}")


@click.group("export")
def export_group() -> None:
    """Export the library: anki (.apkg), markdown (a folder), csv (cards), json (everything)."""


@export_group.command("anki")
@click.argument("out_file", type=click.Path(dir_okay=False, path_type=Path))
@filter_options
@click.option(
    "--with-history",
    is_flag=True,
    help=(
        "Carry each card's schedule and review log, and your FSRS parameters in the decks' preset "
        "(import with 'Import any learning progress' and 'Import deck presets'; FSRS on in Anki)."
    ),
)
@data_dir_option
def anki_cmd(out_file: Path, with_history: bool, data_dir: Path | None, **filters: Any) -> None:
    """An Anki package: our Q&A and Cloze note types, one deck per article under MemoryRush::.

    Exporting again and importing updates the notes Anki already has (same ids), never duplicates."""
    from core.services.export.anki import export_anki
    from core.services.export.runner import anki_schedule

    with services(data_dir, exclusive=False) as svc:
        schedule = anki_schedule(svc)
        result = export_anki(
            out_file,
            make_filter(**filters),
            now=svc.clock.epoch(),
            with_history=with_history,
            schedule=schedule,
        )
        _report(result, "notes")


@export_group.command("markdown")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@filter_options
@click.option(
    "--force", is_flag=True, help="Replace files whose generated part you edited (your notes are still kept)."
)
@data_dir_option
def markdown_cmd(folder: Path, force: bool, data_dir: Path | None, **filters: Any) -> None:
    """One Markdown file per article (Obsidian-friendly); exporting again updates them in place."""
    from core.services.export.markdown import export_markdown

    with services(data_dir, exclusive=False) as svc:
        del svc
        _report(export_markdown(folder, make_filter(**filters), force=force), "")


@export_group.command("csv")
@click.argument("out_file", type=click.Path(dir_okay=False, path_type=Path))
@filter_options
@click.option(
    "--bom", is_flag=True, help="Start with a UTF-8 byte-order mark (Excel needs it for Chinese text)."
)
@click.option(
    "--raw", is_flag=True, help="Keep cells that start with = + - @ as they are (no leading apostrophe)."
)
@data_dir_option
def csv_cmd(out_file: Path, bom: bool, raw: bool, data_dir: Path | None, **filters: Any) -> None:
    """One row per card: question, answer, unit, quotes, schedule."""
    from core.services.export.csv_export import export_csv

    with services(data_dir, exclusive=False) as svc:
        del svc
        _report(export_csv(out_file, make_filter(**filters), bom=bom, raw=raw), "cards")


@export_group.command("json")
@click.argument("out_file", type=click.Path(dir_okay=False, path_type=Path))
@data_dir_option
def json_cmd(out_file: Path, data_dir: Path | None) -> None:
    """Everything, every table row for row (schema: library.schema.json; README "The library as JSON")."""
    from core.services.export.library_json import export_json

    with services(data_dir, exclusive=False) as svc:
        _report(export_json(out_file, now=svc.clock.epoch(), config=svc.config), "cards")


@click.command("import-library")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@data_dir_option
def import_library_cmd(file: Path, data_dir: Path | None) -> None:
    """Load a JSON export into an EMPTY library, losslessly (refuses a library that holds anything)."""
    from core.host import paths
    from core.services.commands.settings import NotSaved, SaveSettings
    from core.services.export.library_json import import_library

    with services(data_dir) as svc:
        loaded = import_library(file)
        rows = loaded.rows
        out(
            f"loaded {file}: {rows.get('article', 0)} articles, {rows.get('unit', 0)} units, "
            f"{rows.get('card', 0)} cards, {rows.get('review_log', 0)} reviews"
        )
        carried = loaded.config
        if carried is not None:
            if paths.config_path().exists():
                out(f"settings: kept your {paths.config_path()} (the file's settings were not applied)")
            else:
                saved = svc.run(SaveSettings(carried))
                if isinstance(saved, NotSaved):
                    fail(f"settings: could not write {saved.file}: {saved.why}")
                out(f"settings: written to {paths.config_path()}")
    sys.exit(0)


COMMANDS: list[click.Command] = [export_group, import_library_cmd]
