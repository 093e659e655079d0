"""A unit moved to another article's deck (Browse `m`) is in that deck for Find's article filter
(the app's and `search --article`), every export's `--article`, the Markdown files and the CSV's
deck columns; the exports still name the source article, whose quotes and paragraphs they are."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner
from export_support import build_library, move_one

from core.domain.export import ExportFilter
from core.domain.search import SearchFilters
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.export.markdown import export_markdown, file_stem, md_text
from tui.cli.main import cli


@pytest.fixture
def moved(services: Services, clock: FixedClock) -> tuple[int, int, int]:
    """The library with one unit moved: (unit id, its source article, the deck's article)."""
    build_library(services, clock, days=1)
    unit_id, _, _ = move_one(services)
    source, deck = (a.id for a in services.library.articles()[:2])
    return unit_id, source, deck


def _content(services: Services, unit_id: int) -> str:
    unit = services.library.unit(unit_id)
    assert unit is not None
    return unit.content


def test_finds_article_filter_takes_the_units_in_the_articles_deck(
    services: Services, moved: tuple[int, int, int]
) -> None:
    unit_id, source, deck = moved
    words = " ".join(_content(services, unit_id).split()[:4])

    def units(article: int) -> dict[int | None, int]:
        filters = SearchFilters(article_ids=(article,), units_only=True)
        return {h.unit_id: h.article_id for h in services.search.search(words, 100, filters)}

    assert units(deck).get(unit_id) == source  # found in the deck; the hit opens its evidence's article
    assert unit_id not in units(source)
    own = services.library.units(deck, ["confirmed"])[0]  # the deck's own units are still found
    found = services.search.search(own.content, 20, SearchFilters(article_ids=(deck,), units_only=True))
    assert own.id in {h.unit_id for h in found}


def test_export_article_takes_the_deck_and_the_csv_names_deck_and_source(
    services: Services, moved: tuple[int, int, int], tmp_path: Path
) -> None:
    unit_id, source, deck = moved
    titles = {a.id: a.title for a in services.library.articles()}
    services.close()  # the command opens the library itself
    out = tmp_path / "deck.csv"
    result = CliRunner().invoke(
        cli, ["export", "csv", str(out), "--article", str(deck)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["deck_id"] for r in rows} == {str(deck)} and {r["deck"] for r in rows} == {titles[deck]}
    mine = [r for r in rows if r["unit_id"] == str(unit_id)]
    assert mine and {(r["article_id"], r["article"]) for r in mine} == {(str(source), titles[source])}
    assert {r["article_id"] for r in rows if r["unit_id"] != str(unit_id)} == {str(deck)}

    result = CliRunner().invoke(
        cli, ["export", "csv", str(out), "--article", str(source)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8", newline="") as fh:
        assert str(unit_id) not in {r["unit_id"] for r in csv.DictReader(fh)}


def test_markdown_lists_a_moved_unit_in_its_decks_file_naming_its_source(
    services: Services, moved: tuple[int, int, int], tmp_path: Path
) -> None:
    unit_id, source, deck = moved
    titles = {a.id: a.title for a in services.library.articles()}
    folder = tmp_path / "vault"
    export_markdown(folder, ExportFilter())
    content = md_text(_content(services, unit_id))
    units_part = "\n## Memory units\n"  # (a unit's text may also be in the summary)
    in_deck = (folder / f"{file_stem(titles[deck])}.md").read_text(encoding="utf-8").split(units_part)[1]
    in_source = (folder / f"{file_stem(titles[source])}.md").read_text(encoding="utf-8").split(units_part)[1]
    assert content in in_deck and content not in in_source
    heading = next(line for line in in_deck.splitlines() if line.startswith("### ") and "from" in line)
    assert heading.endswith(f" · from {md_text(titles[source])}")
    assert in_deck.index(heading) < in_deck.index(content)  # the heading is the moved unit's
    assert sum(line.startswith("### ") and " · from " in line for line in in_deck.splitlines()) == 1
