"""search: find paragraphs and memory units from the command line (read-only).

memoryrush search QUERY [--limit N] [--json] [filters]
memoryrush search --batch FILE --limit N --json      one query per line, one JSON line each

A word that is not in the library is searched as its nearest library word ("showing results
for ..." first; `showing_results_for` in --json, null when the words were searched as typed);
--exact searches the words as typed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from core.domain.search import SearchFilters, SearchResult
from tui.cli.common import data_dir_option, fail, one_line, out, services, unit_filter_options


def _json_line(result: SearchResult) -> str:
    return json.dumps(
        {
            "query": result.query,
            "showing_results_for": result.showing_results_for,
            "hits": [h.to_json() for h in result.hits],
        },
        ensure_ascii=False,
    )


def _print_hits(result: SearchResult) -> None:
    if result.showing_results_for is not None:
        out(f"showing results for: {result.showing_results_for}")
    hits = result.hits
    if not hits:
        out("no matches")
        return
    for i, h in enumerate(hits, start=1):
        label = h.locator.label(under=h.title) if h.locator else ""
        where = f"{h.title} {h.paragraph_id}".strip() + (f" ({label})" if label else "")
        kind = f"unit {h.unit_id}" if h.unit_id is not None else "paragraph"
        out(f"{i:2d}. [{kind}] {one_line(where)}  ({h.score:.4f})")
        out(f"    {h.snippet}")


@click.command("search")
@click.argument("query", required=False)
@click.option(
    "--batch", "batch", type=click.Path(dir_okay=False, path_type=Path), help="File with one query per line."
)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000), help="Hits per query.")
@click.option("--json", "as_json", is_flag=True, help='One JSON line per query: {"query", "hits": [...]}.')
@unit_filter_options(
    article="Only this article's paragraphs and the units in its deck (moved there in Browse too; repeatable).",
    status="Only units with this status (repeatable).",
    memory_type="Only units of this type (repeatable).",
    tag="Only units with this tag (repeatable).",
    origin="Only units you made (yours) or only those an extractor proposed (extracted).",
)
@click.option("--due", is_flag=True, help="Only units with a card due now.")
@click.option("--leech", is_flag=True, help="Only units with a leech card.")
@click.option("--suspended", is_flag=True, help="Only units with a suspended card.")
@click.option(
    "--r-below",
    "r_below",
    type=click.FloatRange(0, 1),
    default=None,
    help="Only units with a card whose recall probability is below this (like Anki's prop:r<0.9).",
)
@click.option("--units", "units_only", is_flag=True, help="Only memory units, no bare paragraphs.")
@click.option("--exact", is_flag=True, help="Search the words as typed: no typo correction.")
@click.option(
    "--no-signals", is_flag=True, help="Rank by text only (no recency / use feedback), e.g. for evaluation."
)
@data_dir_option
def search_cmd(
    query: str | None,
    batch: Path | None,
    limit: int,
    as_json: bool,
    article_ids: tuple[int, ...],
    statuses: tuple[str, ...],
    memory_types: tuple[str, ...],
    tags: tuple[str, ...],
    due: bool,
    leech: bool,
    suspended: bool,
    r_below: float | None,
    units_only: bool,
    exact: bool,
    origin: str | None,
    no_signals: bool,
    data_dir: Path | None,
) -> None:
    """Search every paragraph and memory unit (English and Chinese; your words, no syntax)."""
    if (query is None) == (batch is None):
        fail("give either a QUERY or --batch FILE")
        return
    if batch is not None:
        try:
            queries = batch.read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read {batch}: {exc}")
            return
    else:
        queries = [query or ""]
    filters = SearchFilters(
        article_ids=article_ids,
        unit_statuses=statuses,
        memory_types=memory_types,
        tags=tags,
        due=due,
        leech=leech,
        suspended=suspended,
        retrievability_below=r_below,
        units_only=units_only,
        origin=origin,
    )
    with services(data_dir, exclusive=False) as svc:
        svc.search.signals = not no_signals
        for q in queries:
            result = svc.search.find(q, limit, filters, correct=not exact)
            if as_json:
                sys.stdout.write(_json_line(result) + "\n")
            else:
                if len(queries) > 1:
                    out(f"# {q}")
                _print_hits(result)
        sys.stdout.flush()


COMMANDS: list[click.Command] = [search_cmd]
