"""A table of contents or an index set as text (leader dots, page numbers) is read as kind
"contents": never a heading (a PDF sets its chapter lines as large as the chapters' headings,
and they headed every section after them: "p. 3 · 2 ASN.1 structure handling . . . 2"), never
a card (the offline extractor made "____ Library Notes......" of one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import TextLine, text_pdf

from core.extraction.offline import OfflineExtractor
from core.ingest import read_document
from core.ingest.blocks import is_contents


@pytest.mark.parametrize(
    ("text", "contents"),
    [
        ("1 Introduction . . . . . . . . . . . . . . 1", True),
        ("2.1 ASN.1 syntax. . . . . . . . 2\n2.2 Naming . . . . . . . 2", True),
        ("Preface.........xi", True),
        ("threads . . . . . . . . . . . 17", True),
        ("第一章 引言………………… 1", True),
        ("第二节 方法 ·········· 12", True),
        ("第三章 结论 ⋯⋯⋯⋯⋯⋯ 27", True),
        ("第四章．．．．．．．． 9", True),
        ("序章・・・・・・・・ 3", True),
        ("Header file libtasn1.h. . . . . . . . . . . . . . 4", True),
        ("He paused . . . . and then he left the room.", False),
        ("“I.... I don't know,” she said. “Maybe.... I could try.”", False),  # four-dot ellipses
        ('I said, "Well . . . . I suppose . . . . I could."', False),
        ("Ellipsis style: word.... did you see that? Then.... mix it well.", False),
        ("Countdown: 3.... 2.... 1.... liftoff!", False),
        ("Loading.... 50%.... 100%", False),
        ("倒计时：3……2……1……发射！", False),
        ("I waited...... 10 minutes, then...... 20 minutes more.", False),  # the line goes on
        ("well...... i think so...... i guess we'll see", False),
        ("我等了...... 3 个小时，他才来...... 2 次都迟到。", False),
        ("Recall the rule ...... v is the velocity, and ...... x is the position.", False),
        ("The answer is ...... 42", False),  # one entry: its leader is short
        ("最终比分是…………3", False),
        ("考试成绩：语文……95，数学……98。", False),
        ("The value rose to 3..... and fell again.", False),
        ("他说……好吧，2024年再去。", False),
        ("Version 1.4 of 11 December 2005 added assertions.", False),
        ("大卫·贝克汉姆生于1975年。", False),
    ],
)
def test_a_contents_entry_is_leader_dots_then_a_page(text: str, contents: bool) -> None:
    assert is_contents(text) is contents


def _manual() -> bytes:
    """A contents page whose chapter lines are set large (as the chapters' headings), then the
    chapters themselves."""
    contents = [
        TextLine("Contents", 14, 740),
        TextLine("1 Introduction . . . . . . . . . . . . . . . . . . . . . 2", 14, 700),
        TextLine("1.1 Library Notes . . . . . . . . . . . . . . . . . . . . 2", 10, 680),
        TextLine("1.2 Future developments . . . . . . . . . . . . . . . . 2", 10, 668),
        TextLine("2 Utilities . . . . . . . . . . . . . . . . . . . . . . . 3", 14, 650),
    ]
    intro = [
        TextLine("1 Introduction", 14, 740),
        TextLine("The library handles abstract syntax notation structures in memory.", 10, 700),
        TextLine("Its header file declares every function the library exports.", 10, 686),
    ]
    tools = [
        TextLine("2 Utilities", 14, 740),
        TextLine("The parser reads a file of definitions and writes an array of nodes.", 10, 700),
    ]
    return text_pdf([contents, intro, tools], title="A Manual")


def test_a_pdfs_contents_page_is_no_heading_and_no_card(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(_manual())
    doc = read_document(path)
    kinds = {p.text: p.kind for p in doc.paragraphs}
    listed = [text for text, kind in kinds.items() if kind == "contents"]
    assert listed and all(". . ." in text for text in listed), kinds
    assert "1.1 Library Notes . . . . . . . . . . . . . . . . . . . . 2\n1.2 Future developments" in listed[1]
    assert [p.text for p in doc.paragraphs if p.kind == "heading"] == [
        "Contents",
        "1 Introduction",
        "2 Utilities",
    ]
    body = next(p for p in doc.paragraphs if p.text.startswith("The library handles"))
    assert body.locator.section == ("1 Introduction",), body.locator  # not a contents line
    output = OfflineExtractor().extract(doc).output
    cited = {e.paragraph_id for unit in output.memory_units for e in unit.evidence}
    contents_ids = {p.paragraph_id for p in doc.paragraphs if p.kind == "contents"}
    assert cited and not cited & contents_ids


def test_a_text_files_contents_lines_are_contents(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_text(
        "A Small Book\n\nChapter One . . . . . . . . . 1\nChapter Two . . . . . . . . . 9\n\n"
        "Index\n\nrivers, 3\n\n"
        "The first chapter tells how the river was named by the people\nwho lived beside it.\n",
        encoding="utf-8",
    )
    paragraphs = read_document(path).paragraphs
    assert [p.kind for p in paragraphs] == ["paragraph", "contents", "paragraph", "paragraph", "paragraph"]
    assert (
        paragraphs[1].text == "Chapter One . . . . . . . . . 1\nChapter Two . . . . . . . . . 9"
    )  # as written
    assert paragraphs[-1].text.endswith("by the people who lived beside it.")  # prose is folded


@pytest.mark.parametrize("run", [".", ". ", " .", "…", "·", ". ."])
def test_a_long_run_of_dots_is_read_in_one_pass(run: str) -> None:
    """A leader is matched from its first dot and never given back: 200k characters of dots
    (a hostile or broken file) are read at once, not in minutes (74 s for 32k dots before)."""
    import time

    text = run * (200_000 // len(run))
    started = time.perf_counter()
    assert is_contents(text) is False
    assert is_contents(text + " 12") is True
    assert time.perf_counter() - started < 2.0


def test_an_index_is_named_in_the_few_units_notice(tmp_path: Path) -> None:
    """A file that is mostly an index gets few units, and the notice says why in its words
    ("contents and indexes"), not "markup"."""
    path = tmp_path / "index.txt"
    entries = "\n".join(f"term number {i} . . . . . . . . . . {i + 3}" for i in range(40))
    blocks = [entries] * 12 + ["The river was named by the people who lived beside it in 1820."]
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    notice = OfflineExtractor().extract(read_document(path)).count_notice
    assert notice is not None and "contents and indexes" in notice.rest, notice
