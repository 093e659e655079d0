"""reimport / sync: sources that change, read again into the articles made from them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from core.domain import ImportOutcome
from core.extraction.base import extractor_names
from core.text.words import plural
from tui.cli.common import data_dir_option, fail, one_line, out, services
from tui.cli.library_cmds import EXTRACTOR_HELP, print_outcome


@click.command("reimport")
@click.argument("article")
@click.option("--extractor", type=click.Choice(extractor_names()), default=None, help=EXTRACTOR_HELP)
@data_dir_option
def reimport_cmd(article: str, extractor: str | None, data_dir: Path | None) -> None:
    """Read an article's source file again and update the article in place (ARTICLE: id, title
    or path part): units whose quotes are found again keep their cards and history, the others
    are marked source changed; new paragraphs get proposals."""
    with services(data_dir) as svc:
        found = svc.library.find_articles(article)
        if not found:
            fail(f"no article matches {article!r}; see memoryrush list", 1)
        if len(found) > 1:
            out(f"{len(found)} articles match {article!r}; give an id:", err=True)
            for a in found[:10]:
                out(f"  {a.id}: {one_line(a.title)}", err=True)
            sys.exit(2)
        from core.services.commands.importing import Reimport

        outcome = svc.run(Reimport(found[0].id, extractor=extractor))
        if outcome.status == "already":
            outcome = ImportOutcome(
                outcome.path, "already", "unchanged since it was read", outcome.article_id
            )
        print_outcome(outcome)
        sys.exit(1 if outcome.status == "refused" else 0)


@click.command("sync")
@click.option("--extractor", type=click.Choice(extractor_names()), default=None, help=EXTRACTOR_HELP)
@data_dir_option
def sync_cmd(extractor: str | None, data_dir: Path | None) -> None:
    """Read the followed folders again ([library] follow in the config): new files imported,
    changed ones updated in place, deleted ones flagged "source missing" (never deleted)."""
    with services(data_dir) as svc:
        from core.services.commands.importing import Sync

        report = svc.run(Sync(extractor=extractor, progress=lambda i, n, o: print_outcome(o)))
        for folder in report.absent_folders:
            out(
                f"missing  {folder}: followed folder not found (unmounted?); its articles left as they are",
                err=True,
            )
        for path in report.missing:
            out(f"gone     {path}: source missing; the article, its units and cards are kept")
        for path in report.back:
            out(f"back     {path}: the source is there again")
        changed = sum(1 for o in report.outcomes if o.status == "new_version")
        new = sum(1 for o in report.outcomes if o.status == "imported")
        skipped = f"; {report.skipped} skipped (another file type: listed above)" if report.skipped else ""
        out(
            f"{plural(report.files, 'file')}: {new} imported, {changed} updated, {report.refused} refused; "
            f"{plural(len(report.missing), 'source')} missing{skipped}"
        )
        sys.exit(1 if report.refused or report.absent_folders else 0)


COMMANDS: list[click.Command] = [reimport_cmd, sync_cmd]
