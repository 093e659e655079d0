"""`export markdown` (one Obsidian file per article, updated in place, never clobbering what is
not ours) and `export csv` (one row per card), on a real library."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from export_support import build_library

from core.domain.context import context_line
from core.domain.export import ExportFilter
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.export.csv_export import COLUMNS, export_csv
from core.services.export.markdown import MARKER, export_markdown, file_stem, md_text


@pytest.fixture
def library(services: Services, clock: FixedClock) -> Services:
    build_library(services, clock, days=1)
    return services


def front_matter(path: Path) -> dict[str, object]:
    head = path.read_text(encoding="utf-8").split("\n---\n", 1)[0].removeprefix("---\n")
    return {k: json.loads(v) for k, _, v in (line.partition(": ") for line in head.splitlines())}


def test_one_file_per_article_with_front_matter_units_and_quotes(library: Services, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    result = export_markdown(folder, ExportFilter())
    articles = library.library.articles()
    files = sorted(folder.glob("*.md"))
    assert result.articles == len(articles) == len(files)
    located = sections = 0
    assert {p.stem for p in files} == {file_stem(a.title) for a in articles}
    for a in articles:
        path = folder / f"{file_stem(a.title)}.md"
        meta = front_matter(path)
        assert meta["title"] == a.title and meta["source"] == a.source_path
        assert "memoryrush" in meta["tags"]  # type: ignore[operator]
        assert meta["created"] == "2026-11-02"
        text = path.read_text(encoding="utf-8")
        for u in library.library.units(a.id, ["confirmed"]):
            # where the unit comes from (issue 30): its context line, in italics over its content
            assert f"*{md_text(context_line(a.title, u.locator))}*\n\n{md_text(u.content)}" in text
            sections += " › " in context_line(a.title, u.locator)
            for e in u.evidence:
                assert f"> {md_text(e.quote).splitlines()[0]}" in text
                assert f"> — {e.paragraph_id}" in text
                if e.locator:  # the sample articles are Markdown: each quote's section path
                    located += 1
                    assert f"> — {e.paragraph_id} · {e.locator.label()}" in text
            for q in u.questions:
                assert md_text(q.question) in text
        assert text.rstrip().endswith(MARKER)
    assert located and sections  # locators reach the export


def test_a_second_export_updates_in_place_and_keeps_your_notes(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    folder = tmp_path / "vault"
    export_markdown(folder, ExportFilter())
    article = library.library.articles()[0]
    path = folder / f"{file_stem(article.title)}.md"
    path.write_text(path.read_text(encoding="utf-8") + "My own thought, kept.\n", encoding="utf-8")
    unit = library.library.units(article.id, ["confirmed"])[0]
    questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    library.curation.edit(
        unit.id, content="A brand new wording", memory_type=unit.memory_type, tags=[], questions=questions
    )
    again = export_markdown(folder, ExportFilter())
    assert again.notes == ()
    assert sorted(p.name for p in folder.glob("*.md")) == sorted(
        f"{file_stem(a.title)}.md" for a in library.library.articles()
    )
    text = path.read_text(encoding="utf-8")
    assert "A brand new wording" in text
    assert text.endswith(MARKER + "\nMy own thought, kept.\n")


def test_an_article_left_with_no_confirmed_unit_has_its_file_updated(
    library: Services, tmp_path: Path
) -> None:
    """Its units all rejected since the last export, the article dropped out of the export and its
    file still listed them (issue 34, item 13.3). Now the file says it has none; your notes stay;
    a narrower export (one article) leaves the other articles' files be."""
    folder = tmp_path / "vault"
    export_markdown(folder, ExportFilter())
    first, other = library.library.articles()[:2]
    path = folder / f"{file_stem(first.title)}.md"
    path.write_text(path.read_text(encoding="utf-8") + "My own thought, kept.\n", encoding="utf-8")
    gone = library.library.units(first.id, ["confirmed"])
    for unit in gone:
        library.curation.reject(unit.id)
    for unit in library.library.units(other.id, ["confirmed"]):
        library.curation.reject(unit.id)
    other_path = folder / f"{file_stem(other.title)}.md"
    other_before = other_path.read_text(encoding="utf-8")

    again = export_markdown(folder, ExportFilter(article_ids=(first.id,)))

    assert again.notes == ()
    text = path.read_text(encoding="utf-8")
    assert "No confirmed unit." in text
    assert gone and "\n### " not in text  # no unit listed any more
    assert text.endswith(MARKER + "\nMy own thought, kept.\n")
    assert other_path.read_text(encoding="utf-8") == other_before  # not in this export's scope
    export_markdown(folder, ExportFilter())
    assert "No confirmed unit." in other_path.read_text(encoding="utf-8")
    assert export_markdown(folder, ExportFilter()).notes == ()  # its digest matches: no false alarm


def test_files_that_are_not_ours_are_never_touched(library: Services, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    folder.mkdir()
    article = library.library.articles()[0]
    theirs = folder / f"{file_stem(article.title)}.md"
    theirs.write_text("# My own page with the same name\n", encoding="utf-8")
    export_markdown(folder, ExportFilter())
    assert theirs.read_text(encoding="utf-8") == "# My own page with the same name\n"
    ours = folder / f"{file_stem(article.title)} (2).md"
    assert front_matter(ours)["title"] == article.title
    export_markdown(folder, ExportFilter())  # the second export finds its own file again
    assert len(list(folder.glob("*.md"))) == len(library.library.articles()) + 1


def test_an_edited_generated_part_is_not_clobbered_without_force(library: Services, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    export_markdown(folder, ExportFilter())
    article = library.library.articles()[0]
    path = folder / f"{file_stem(article.title)}.md"
    edited = path.read_text(encoding="utf-8").replace("## Memory units", "## Memory units (mine)")
    path.write_text(edited, encoding="utf-8")
    result = export_markdown(folder, ExportFilter())
    assert any("you edited the generated part" in n for n in result.notes)
    assert path.read_text(encoding="utf-8") == edited
    export_markdown(folder, ExportFilter(), force=True)
    assert "## Memory units (mine)" not in path.read_text(encoding="utf-8")


def test_markdown_text_is_escaped() -> None:
    assert (
        md_text("[[link]] #tag <b>x</b> ==hi== %%c%%")
        == r"\[\[link\]\] \#tag \<b\>x\</b\> \=\=hi\=\= \%\%c\%\%"
    )
    assert md_text("- not a list\n# not a heading").splitlines() == [r"\- not a list", r"\# not a heading"]
    assert file_stem('a/b:c*?"<>|.') == "a b c"


def test_csv_has_a_row_per_card_and_neutralises_formulas(library: Services, tmp_path: Path) -> None:
    unit = library.library.units(None, ["confirmed"])[0]
    questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    questions[0] = ('=HYPERLINK("http://x")', questions[0][1], "qa")
    library.curation.edit(
        unit.id, content=unit.content, memory_type=unit.memory_type, tags=["a b", "c"], questions=questions
    )
    out = tmp_path / "cards.csv"
    result = export_csv(out, ExportFilter(), bom=True)
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == COLUMNS
    confirmed = [q for u in library.library.units(None, ["confirmed"]) for q in u.questions]
    assert len(rows) == result.cards == len(confirmed)
    row = next(r for r in rows if r["question_id"] == str(unit.questions[0].id))
    assert row["question"] == '\'=HYPERLINK("http://x")'
    assert row["tags"] == "a b; c"
    assert row["card_id"] and row["state"] in ("new", "learning", "review", "relearning")
    titles = {a.id: a.title for a in library.library.articles()}
    for u in library.library.units(None, ["confirmed"]):  # where each card comes from (issue 30)
        wanted = context_line(titles[u.article_id], u.locator)
        assert {r["context"] for r in rows if r["unit_id"] == str(u.id)} == {wanted}
    assert any(" › " in r["context"] for r in rows)
    export_csv(out, ExportFilter(), raw=True)
    with out.open(encoding="utf-8", newline="") as fh:
        assert any(r["question"].startswith("=HYPERLINK") for r in csv.DictReader(fh))
