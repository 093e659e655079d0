"""`export json` → `import-library` into an empty library gives back every table, row for row.

The library is real (imports, accepted units, reviews, an undo entry, search feedback, a trashed
unit, settings); the comparison reads both SQLite files directly, every table, the search index by
its per-document content. The file follows the JSON Schema we ship; bad files are refused with a
reason and nothing is written.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from export_support import as_older, build_library, table_rows
from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain.search import SearchFilters
from core.host.clock import FixedClock
from core.host.config import Config
from core.services.bootstrap import Services, open_services
from core.services.export.library_json import (
    FORMAT_VERSION,
    SCHEMA_FILE,
    LibraryFileError,
    _encode_rows,
    export_json,
    import_library,
)
from core.storage import dump
from core.storage.db import db
from core.storage.search import index as search_index

BEFORE = [
    "Spaced repetition schedules each review just before you would forget it. It is old.",
    "The forgetting curve was described by Hermann Ebbinghaus with nonsense syllables. He tested himself.",
    "Ebbinghaus published his memory experiments in 1885 in Leipzig. The book is short.",
]
AFTER = [
    BEFORE[0],
    "The forgetting curve was first described by Hermann Ebbinghaus with nonsense syllables. He tested himself.",
    "Ebbinghaus published his memory experiments in 1886 in Leipzig. The book is short.",
]


def sources_that_changed(services: Services, folder: Path) -> None:
    """A followed folder synced twice: a note reworded (a quote moved fuzzily, one lost: the
    evidence history, a unit marked source changed) and a note deleted (source missing)."""
    folder.mkdir()
    (folder / "notes.txt").write_text("\n\n".join(BEFORE) + "\n", encoding="utf-8")
    (folder / "gone.txt").write_text("Deleted notes are flagged, never deleted.\n", encoding="utf-8")
    services.config = replace(services.config, follow=(str(folder),))
    services.library.sync(extractor="placeholder")
    for article in services.library.articles():
        services.curation.accept_all_valid(article.id)
    (folder / "notes.txt").write_text("\n\n".join(AFTER) + "\n", encoding="utf-8")
    (folder / "gone.txt").unlink()
    report = services.library.sync(extractor="placeholder")
    assert [o.status for o in report.outcomes] == ["new_version"] and len(report.missing) == 1


def column_names(db_file: Path, table: str) -> list[str]:
    con = sqlite3.connect(db_file)
    try:
        return [str(r[1]) for r in con.execute(f'PRAGMA table_info("{table}")')]
    finally:
        con.close()


@pytest.fixture
def library(services: Services, clock: FixedClock, tmp_path: Path) -> Services:
    build_library(services, clock)
    sources_that_changed(services, tmp_path / "followed")
    services.review.start_session()
    item = services.review.next_card()
    assert item is not None
    services.review.suspend(item.card.id)  # an undo entry beyond the ratings'
    unit = services.library.units(None, ["confirmed"])[0]
    services.curation.trash(unit.id)
    hits = services.search.search("photosynthesis", 3, SearchFilters())
    services.search.record_open(hits[0])
    services.review.set_parameters(tuple(0.1 + i / 100 for i in range(21)))
    return services


def test_every_table_comes_back_row_for_row(library: Services, clock: FixedClock, tmp_path: Path) -> None:
    out = tmp_path / "library.json"
    result = export_json(out, now=clock.epoch(), config=library.config)
    assert result.cards > 20 and result.reviews >= 10
    before = table_rows(library.data_dir / "memoryrush.sqlite3")
    library.close()

    fresh = tmp_path / "fresh"
    svc = open_services(fresh, clock=clock)
    try:
        loaded = import_library(out)
    finally:
        svc.close()
    after = table_rows(fresh / "memoryrush.sqlite3")
    assert sorted(after) == sorted(before)
    for rows in (before, after):  # a cache key that counts index changes, not what is indexed
        rows["search_stats"] = [r for r in rows["search_stats"] if r[0] != search_index.PARAGRAPHS_KEY]
    for table in before:
        assert after[table] == before[table], table
    for table in dump.dumped_tables():
        assert loaded.rows[table] == len(before[table]), table
    assert before["undo_entry"] and before["search_feedback"] and before["review_log"]  # they are not empty
    # schema 2's rows and columns are in it: reader text's spans and locators, a source changed
    # (evidence history, a unit's anchor) and a source missing
    assert {row[6] for row in before["evidence_history"]} >= {"fuzzy", "lost"}
    for table, column in (
        ("paragraph", "spans_json"),
        ("paragraph", "locator_json"),
        ("unit", "anchor"),
        ("article", "source_missing_at"),
        ("article", "reader_version"),
    ):
        at = column_names(fresh / "memoryrush.sqlite3", table).index(column)
        assert any(row[at] not in (None, "") for row in before[table]), (table, column)


def test_the_file_follows_the_shipped_json_schema(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=library.config)
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert data["format_version"] == FORMAT_VERSION
    assert data["config"]["review"]["desired_retention"] == library.config.desired_retention


def test_the_schema_file_names_every_column_of_every_table(services: Services) -> None:
    """A new table or column must be documented (and a new table sorted: dumped or derived)."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["properties"]["tables"]["properties"]
    assert list(schema) == dump.dumped_tables()
    for table in dump.dumped_tables():
        assert schema[table]["properties"]["columns"]["const"] == dump.columns(table), table
        items = schema[table]["properties"]["rows"]["items"]["prefixItems"]
        assert [c["title"] for c in items] == dump.columns(table), table
        assert schema[table]["description"]
    for table in dump.all_tables():
        assert table in dump.dumped_tables() or dump.is_derived(table), f"{table}: dumped or derived?"


def test_a_library_that_holds_anything_is_refused(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=library.config)
    before = table_rows(library.data_dir / "memoryrush.sqlite3")
    with pytest.raises(LibraryFileError, match="not empty"):
        import_library(out)
    assert table_rows(library.data_dir / "memoryrush.sqlite3") == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "memoryrush-library", "format_version": 1, ', "not valid JSON at line 1"),
        ('{"format": "something-else"}', "not a MemoryRush library file"),
        (
            '{"format": "memoryrush-library", "format_version": 99, "schema_version": 1, "tables": {}}',
            "newer",
        ),
        (
            '{"format": "memoryrush-library", "format_version": 1, "schema_version": 99, "tables": {}}',
            "newer MemoryRush",
        ),
        (
            '{"format": "memoryrush-library", "format_version": 1, "schema_version": 1, "tables": {"x": []}}',
            "unknown table",
        ),
        (
            '{"format": "memoryrush-library", "format_version": 1, "schema_version": 1, '
            '"tables": {"setting": {"columns": ["key", "value_json"], "rows": [["a"]]}}}',
            "row 1: not a list of 2 values",
        ),
    ],
)
def test_bad_files_are_refused_with_a_reason(
    services: Services, tmp_path: Path, text: str, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(LibraryFileError, match=message):
        import_library(bad)
    assert dump.is_empty()


def test_a_row_that_breaks_the_schema_loads_nothing(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=Config())
    data = json.loads(out.read_text(encoding="utf-8"))
    card = data["tables"]["card"]
    card["rows"][0][card["columns"].index("question_id")] = 10**9  # points at no question
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    library.close()
    svc = open_services(tmp_path / "fresh", clock=clock)
    try:
        with pytest.raises(Exception, match="card"):
            import_library(broken)
        assert dump.is_empty()
        assert db.execute_sql("SELECT COUNT(*) FROM article").fetchone()[0] == 0
    finally:
        svc.close()


def test_a_file_of_schema_1_loads_and_its_articles_are_read_again(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    """A file written before schema 2 (no reader text columns, no evidence history) loads: the
    columns it lacks take their defaults, so its articles count as read by the old reader and
    the next open renders them again (the README's promise)."""
    out = tmp_path / "library.json"
    export_json(out, now=clock.epoch(), config=library.config)
    library.close()
    new = {
        "article": {"reader_version", "source_missing_at"},
        "paragraph": {"spans_json", "locator_json"},
        "unit": {"anchor"},
    }
    data = as_older(json.loads(out.read_text(encoding="utf-8")), 1, ["evidence_history"], new)
    old = tmp_path / "schema1.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    fresh = tmp_path / "fresh"
    svc = open_services(fresh, clock=clock)
    try:
        loaded = import_library(old)
        assert (
            loaded.rows["article"] == len(data["tables"]["article"]["rows"])
            and loaded.rows["evidence_history"] == 0
        )
    finally:
        svc.close()
    reopened = open_services(fresh, clock=clock)
    try:
        assert any("new readers" in n for n in reopened.notices), reopened.notices
        spanned = db.execute_sql("SELECT COUNT(*) FROM paragraph WHERE spans_json IS NOT NULL").fetchone()[0]
        assert spanned > 0  # the Markdown samples' emphasis is spans again
    finally:
        reopened.close()


# Values as SQLite returns them, with the text that could pass for the layout's own separators.
VALUES = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(
        st.sampled_from(["]", "[", ",", "\n", " ", '"', "\\", "\u2028", "\x00", "a", "证", "\U0001f600"])
    ),
    st.text(),
)


@settings(max_examples=400, deadline=None)
@given(rows=st.lists(st.lists(VALUES, min_size=1, max_size=5).map(tuple), min_size=1, max_size=6))
def test_a_batch_of_rows_is_written_as_each_row_alone_would_be(rows: list[tuple[object, ...]]) -> None:
    """The batch is encoded in one call and split between rows: the text must be the rows'
    one-per-line encoding whatever the strings hold (brackets, commas, newlines)."""
    alone = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    assert _encode_rows(rows) == ",\n   ".join(alone(row) for row in rows)
