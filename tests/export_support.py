"""A small real library for the export tests: the sample articles imported by the offline
extractor, every valid proposal accepted, and a few days of real reviews through the services."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from core.domain.browse import BrowseFilter, RowKey, Selection
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from sample_articles import sample_paths
from scheduler import Rating

RATINGS = (Rating.GOOD, Rating.AGAIN, Rating.GOOD, Rating.EASY, Rating.HARD)


def build_library(services: Services, clock: FixedClock, *, days: int = 3, per_day: int = 6) -> None:
    services.review.fuzz = False
    for outcome in services.library.import_paths(sample_paths(), extractor="offline"):
        assert outcome.status == "imported", outcome.message
    for article in services.library.articles():
        services.curation.accept_all_valid(article.id)
    n = 0
    for _ in range(days):
        services.review.start_session()
        for _ in range(per_day):
            item = services.review.next_card()
            if item is None:
                break
            services.review.answer(item.card.id, RATINGS[n % len(RATINGS)], duration_ms=4000 + n)
            n += 1
            clock.advance(minutes=3)
        clock.advance(days=1)


def move_one(services: Services) -> tuple[int, str, str]:
    """The first confirmed unit of the first article into the second article's deck (Browse's
    "move to deck", one card of it taking the unit): (unit id, source title, deck title)."""
    first, second = services.library.articles()[:2]
    unit = services.library.units(first.id, ["confirmed"])[0]
    keys = tuple(RowKey(c.id, unit.id) for c in services.review.cards_of_unit(unit.id))
    result = services.browse.move_to_deck(Selection(BrowseFilter(), keys[:1]), second.id)
    assert result.units == 1
    return unit.id, first.title, second.title


def table_rows(db_file: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows (FTS5 tables by their logical content), for comparing two libraries."""
    con = sqlite3.connect(db_file)
    try:
        out: dict[str, list[tuple[object, ...]]] = {}
        names = [
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        virtual = {
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")
        }
        shadow = {n for n in names for v in virtual if n.startswith(f"{v}_")}
        for name in names:
            if name in shadow:
                continue  # an FTS5 index's segments depend on insertion order; its content is compared below
            if name in virtual:
                con.execute(
                    f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_{name} USING fts5vocab(main, {name}, 'instance')"
                ) if name != "search_para_vocab" else None
                source = name if name == "search_para_vocab" else f"temp.v_{name}"
                out[name] = sorted(con.execute(f"SELECT * FROM {source}"), key=repr)
                continue
            width = len(con.execute(f'SELECT * FROM "{name}" LIMIT 0').description)
            out[name] = list(con.execute(f'SELECT * FROM "{name}" ORDER BY 1{", 2" if width > 1 else ""}'))
        return out
    finally:
        con.close()


def as_older(
    data: dict[str, Any],
    schema_version: int,
    tables: Iterable[str] = (),
    columns: Mapping[str, set[str]] = {},
) -> dict[str, Any]:
    """A library file (`data`, as export_json wrote it) made to look written at `schema_version`:
    without the `tables` and the `columns` (by table) that schema added since."""
    data["schema_version"] = schema_version
    for table in tables:
        del data["tables"][table]
    for table, new in columns.items():
        given = data["tables"].get(table)
        if given is None:
            continue
        keep = [i for i, name in enumerate(given["columns"]) if name not in new]
        given["columns"] = [given["columns"][i] for i in keep]
        given["rows"] = [[row[i] for i in keep] for row in given["rows"]]
    return data
