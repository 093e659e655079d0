"""`memoryrush search`: the JSON line formats the evaluation scorer reads, batch order, filters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.host import paths
from core.host.lock import InstanceLock
from tui.cli.main import cli

TEXT = """Tides

The gravitational pull of the moon raises ocean tides twice a day.

潮汐是海水在月球引力作用下周期性涨落的现象。

A spring tide happens when the sun and the moon line up.
"""
HIT_KEYS = {"source_path", "paragraph_id", "locator", "unit_id", "score", "snippet"}


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    src = tmp_path / "articles"
    src.mkdir()
    (src / "tides.txt").write_text(TEXT, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(src)])
    assert result.exit_code == 0, result.output
    return src / "tides.txt"


def _lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_single_query_json(imported: Path) -> None:
    result = CliRunner().invoke(cli, ["search", "moon", "--json", "--limit", "2"])
    assert result.exit_code == 0, result.output
    (line,) = _lines(result.output)
    assert line["query"] == "moon"
    hits = line["hits"]
    assert isinstance(hits, list) and 1 <= len(hits) <= 2
    for hit in hits:
        assert set(hit) == HIT_KEYS
        assert Path(hit["source_path"]).name == "tides.txt"
        assert str(hit["paragraph_id"]).startswith("p_")
        assert hit["locator"] == {}  # plain text: no headings, pages or chapters
        assert hit["unit_id"] is None or isinstance(hit["unit_id"], int)
        assert "moon" in str(hit["snippet"]).lower()
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_batch_keeps_order_and_gives_one_line_per_query(imported: Path, tmp_path: Path) -> None:
    queries = ["潮汐", "", '"unbalanced AND a:b * NEAR(', "spring tide", "月球引力", "nothingmatcheshere"]
    qfile = tmp_path / "queries.txt"
    qfile.write_text("\n".join(queries) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["search", "--batch", str(qfile), "--limit", "3", "--json"])
    assert result.exit_code == 0, result.output
    lines = _lines(result.output)
    assert [line["query"] for line in lines] == queries
    by_query = {str(line["query"]): line["hits"] for line in lines}
    assert by_query[""] == [] and by_query["nothingmatcheshere"] == []
    assert by_query["潮汐"][0]["paragraph_id"] == "p_003"  # type: ignore[index]
    assert by_query["月球引力"][0]["paragraph_id"] == "p_003"  # type: ignore[index]
    assert by_query["spring tide"][0]["paragraph_id"] == "p_004"  # type: ignore[index]


def test_search_works_while_the_app_holds_the_library(imported: Path) -> None:
    lock = InstanceLock(paths.lock_path()).acquire()
    try:
        result = CliRunner().invoke(cli, ["search", "moon", "--json"])
    finally:
        lock.release()
    assert result.exit_code == 0, result.output
    assert _lines(result.output)[0]["hits"]


def test_text_output_and_filters(imported: Path) -> None:
    result = CliRunner().invoke(cli, ["search", "moon"])
    assert result.exit_code == 0 and "p_002" in result.output
    result = CliRunner().invoke(cli, ["search", "moon", "--status", "confirmed", "--json"])
    assert result.exit_code == 0
    assert _lines(result.output)[0]["hits"] == []  # nothing confirmed yet
    result = CliRunner().invoke(cli, ["search", "moon", "--units", "--json"])
    assert all(h["unit_id"] is not None for h in _lines(result.output)[0]["hits"])  # type: ignore[union-attr]


def test_usage_errors(imported: Path, tmp_path: Path) -> None:
    assert CliRunner().invoke(cli, ["search"]).exit_code == 2
    assert CliRunner().invoke(cli, ["search", "x", "--batch", str(tmp_path / "q.txt")]).exit_code == 2
    result = CliRunner().invoke(cli, ["search", "--batch", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_hits_carry_where_the_paragraph_sits(data_home: Path, tmp_path: Path) -> None:
    """A Markdown paragraph's heading path (a PDF's page, an EPUB's chapter) comes with the hit."""
    src = tmp_path / "guide.md"
    src.write_text(
        "# Guide\n\n## Tides\n\n### Spring tides\n\nSpring tides follow the new and full moon.\n",
        encoding="utf-8",
    )
    assert CliRunner().invoke(cli, ["import", str(src), "--extractor", "placeholder"]).exit_code == 0
    (line,) = _lines(CliRunner().invoke(cli, ["search", "full moon", "--json"]).output)
    assert line["hits"][0]["locator"] == {"section": ["Tides", "Spring tides"]}
    text = CliRunner().invoke(cli, ["search", "full moon"]).output
    assert "Guide p_003 (Tides › Spring tides)" in text
