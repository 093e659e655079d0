"""process / import / list / show / rename."""

from __future__ import annotations

import shlex
import sys
from collections import Counter
from pathlib import Path

import click

from core.domain import ImportOutcome
from core.domain.errors import MemoryRushError
from core.extraction.base import extractor_names
from core.host.config import load_config
from core.host.paths import config_path
from core.ingest import SUPPORTED_SUFFIXES, scan_inputs
from core.services.bootstrap import use_data_dir
from core.services.commands.importing import Import
from core.services.extractors import configured_extractor
from core.services.processing import ProcessOutcome, process_paths
from core.text.words import plural
from tui.cli.common import data_dir_option, fail, one_line, out, services

SUFFIXES = " ".join(SUPPORTED_SUFFIXES)
EXTRACTOR_HELP = (
    "Extractor: offline (default; no model, English and Chinese), ollama (a local LLM, falls "
    "back to offline on any fault), placeholder (first sentence of each paragraph; reference only)."
)


@click.command("process")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the artifact JSON files.",
)
@click.option("--extractor", type=click.Choice(extractor_names()), default=None, help=EXTRACTOR_HELP)
@click.option("--encoding", default=None, help="Force the input encoding (e.g. gbk, big5, utf-16).")
@data_dir_option
def process_cmd(
    paths: tuple[Path, ...], out_dir: Path, extractor: str | None, encoding: str | None, data_dir: Path | None
) -> None:
    """Parse, extract and validate files into artifact JSON, without touching the library."""
    use_data_dir(data_dir)
    try:
        config = load_config(config_path())
        ex = configured_extractor(config, extractor)
    except (MemoryRushError, ValueError) as exc:
        fail(str(exc))
        return
    scan = scan_inputs(paths)
    for path, reason in scan.skipped:
        out(f"skipped  {path}: {reason}", err=True)
    files = scan.files
    if not files:
        fail(f"no input files ({SUFFIXES}) found in the given paths", 1)

    def report(o: ProcessOutcome) -> None:
        if o.ok:
            out(f"ok       {o.path}: {o.message} -> {o.artifact_path}")
            if o.artifact is not None:
                for notice in o.artifact.notices:
                    out(f"notice   {o.path}: {notice}", err=True)
        else:
            out(f"refused  {o.path}: {o.message}", err=True)

    try:
        outcomes = process_paths(
            files,
            out_dir,
            ex,
            encoding=encoding,
            max_bytes=int(config.max_file_mb * 1024 * 1024),
            report=report,
        )
    except MemoryRushError as exc:
        fail(str(exc))
        return
    failed = sum(1 for o in outcomes if not o.ok)
    out(f"{len(outcomes) - failed} processed, {failed} failed")
    sys.exit(1 if failed else 0)


LABELS = {
    "imported": "imported",
    "already": "already ",
    "new_version": "updated ",
    "refused": "refused ",
    "skipped": "skipped ",
}


def print_outcome(o: ImportOutcome) -> None:
    out(f"{LABELS[o.status]} {o.path}: {o.message}", err=o.status in ("refused", "skipped"))


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--extractor", type=click.Choice(extractor_names()), default=None, help=EXTRACTOR_HELP)
@click.option("--encoding", default=None, help="Force the input encoding (e.g. gbk, big5, utf-16).")
@data_dir_option
def import_cmd(
    paths: tuple[Path, ...], extractor: str | None, encoding: str | None, data_dir: Path | None
) -> None:
    """Import files or folders into the library: text, Markdown, web pages (.html .htm .xhtml),
    reStructuredText, EPUB, PDF and Word (.docx); folders recursively. A file already imported
    whose text changed is updated in place."""
    with services(data_dir) as svc:
        outcomes = svc.run(
            Import(paths, extractor=extractor, encoding=encoding, progress=lambda i, n, o: print_outcome(o))
        )
        counts = Counter(o.status for o in outcomes)
        refused, skipped = counts["refused"], counts["skipped"]
        done = len(outcomes) - refused - skipped
        if not done and not refused:
            fail(f"no input files ({SUFFIXES}) found in the given paths", 1)
        tail = f", {skipped} skipped (another file type: listed above)" if skipped else ""
        out(f"{done} imported or up to date, {refused} refused{tail}")
        sys.exit(1 if refused else 0)


@click.command("list")
@data_dir_option
def list_cmd(data_dir: Path | None) -> None:
    """List the articles in the library."""
    with services(data_dir, exclusive=False) as svc:
        articles = svc.library.articles()
        if not articles:
            out("The library is empty. Import articles with: memoryrush import PATH")
            return
        out(f"{'id':>5}  {'paras':>5}  {'prop':>4}  {'conf':>4}  title")
        for a in articles:
            version = f" (v{a.version})" if a.version > 1 else ""
            missing = "  [source missing]" if a.source_missing else ""
            out(
                f"{a.id:>5}  {a.paragraph_count:>5}  {a.proposed:>4}  {a.confirmed:>4}  "
                f"{one_line(a.title)}{version}{missing}"
            )


@click.command("show")
@click.argument("article")
@data_dir_option
def show_cmd(article: str, data_dir: Path | None) -> None:
    """Show an article's memory units with their evidence (ARTICLE: id, title or path part)."""
    with services(data_dir, exclusive=False) as svc:
        found = svc.library.find_articles(article)
        if not found:
            fail(f"no article matches {article!r}; see memoryrush list", 1)
        if len(found) > 1:
            out(f"{len(found)} articles match {article!r}; showing the first. Use an id to choose:")
            for a in found[:10]:
                out(f"  {a.id}: {one_line(a.title)}")
        a = found[0]
        out(
            f"{one_line(a.title)}  [{a.id}, {plural(a.paragraph_count, 'paragraph')}, {a.encoding}, {one_line(a.source_path)}]"
        )
        summary = svc.library.summary(a.id)
        if summary and summary.get("summary"):
            out(f"Summary: {summary['summary']}")
        units = svc.library.units(a.id)
        for u in units:
            out("")
            tags = f"  #{' #'.join(u.tags)}" if u.tags else ""
            changed = {
                "changed": "  (source changed: keep or retire it)",
                "kept": "  (kept after its source changed)",
            }
            out(f"[{u.status}] {u.memory_type} ({u.confidence:.2f}) #{u.id}{tags}{changed.get(u.anchor, '')}")
            out(f"  {u.content}")
            for e in u.evidence:
                label = e.locator.label(under=a.title) if e.locator else ""  # the title heads the output
                where = f" ({label})" if label else ""
                out(f"  {e.paragraph_id}{one_line(where)}: \u201c{e.quote}\u201d")
            for q in u.questions:
                out(f"  {q.kind.upper()}: {q.question}  ->  {q.expected_answer}")
            for issue in u.issues:
                out(f"  ! {issue.code}: {issue.message}")
        if not units:
            out("(no memory units)")


@click.command("rename")
@click.argument("article")
@click.argument("title")
@data_dir_option
def rename_cmd(article: str, title: str, data_dir: Path | None) -> None:
    """Give an article your own title (ARTICLE: id, title or path part). A reimport keeps it;
    an empty TITLE ("") gives back the title its source has."""
    with services(data_dir) as svc:
        found = svc.library.find_articles(article)
        exact = [a for a in found if str(a.id) == article.strip()]
        if not found:
            fail(f"no article matches {article!r}; see memoryrush list", 1)
        if len(found) > 1 and not exact:
            lines = "".join(f"\n  {a.id}: {one_line(a.title)}" for a in found[:10])
            fail(f"{len(found)} articles match {article!r}; rename one by its id:{lines}", 1)
        done = svc.library.rename_article((exact or found)[0].id, title)
        where = " (its source's title)" if done.from_source else ""
        out(f"renamed {done.article_id}: {one_line(done.before)!r} -> {one_line(done.title)!r}{where}")
        if done.before != done.title:
            out(f"to undo: memoryrush rename {done.article_id} {shlex.quote(one_line(done.before))}")


COMMANDS = [process_cmd, import_cmd, list_cmd, show_cmd, rename_cmd]
