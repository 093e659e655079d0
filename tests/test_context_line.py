"""The context line (issue 30): a card's article title and where its quote sits, short, one line."""

from __future__ import annotations

import re

import pytest

from core.domain import NO_LOCATOR, Locator
from core.domain.context import CONTEXT_WIDTH, context_line, readable_title
from core.ingest.formats import SUPPORTED_SUFFIXES


def test_the_title_and_the_heading_path() -> None:
    where = Locator(("Why spacing works", "Desirable difficulty"))
    assert (
        context_line("Spaced repetition", where)
        == "Spaced repetition › Why spacing works › Desirable difficulty"
    )


def test_no_locator_shows_the_title_alone() -> None:
    assert context_line("Photosynthesis") == "Photosynthesis"
    assert context_line("Photosynthesis", NO_LOCATOR) == "Photosynthesis"
    assert context_line("") == "Untitled"


def test_a_pdf_page_and_an_epub_chapter() -> None:
    assert context_line("Paper", Locator(page=4)) == "Paper › p. 4"
    assert context_line("Paper", Locator(("Methods",), page=4)) == "Paper › Methods › p. 4"
    assert context_line("Book", Locator(chapter="Chapter 2")) == "Book › Chapter 2"
    assert context_line("Book", Locator(("Roots",), chapter="Chapter 2")) == "Book › Chapter 2 › Roots"


def test_a_part_that_repeats_the_one_before_is_shown_once() -> None:
    assert (
        context_line("Book", Locator(("Chapter 2", "Roots"), chapter="Chapter 2"))
        == "Book › Chapter 2 › Roots"
    )
    assert context_line("Guide", Locator(("guide", "Install"))) == "Guide › Install"


def test_a_long_heading_path_loses_its_outer_headings_first() -> None:
    where = Locator(tuple(f"Section number {n} of the long document" for n in range(1, 6)))
    line = context_line("A handbook", where)
    assert line == "A handbook › … › Section number 5 of the long document"
    two = Locator(("Background and motivation", "Related work", "Leitner boxes"))
    line = context_line("The forgetting curve, revisited", two)
    assert line == "The forgetting curve, revisited › … › Related work › Leitner boxes"  # two fit


def test_a_long_title_and_heading_are_cut_at_their_ends() -> None:
    title = "An extremely long article title that goes on and on about many different things"
    line = context_line(
        title, Locator(("Outer", "A heading that is itself rather long as headings go"), page=12)
    )
    assert len(line) <= CONTEXT_WIDTH
    assert line == "An extremely long artic… › … › A heading that is itself rather long as… › p. 12"
    alone = context_line("x" * 200)
    assert len(alone) == CONTEXT_WIDTH and alone.endswith("…")
    huge = context_line("Title", Locator(("h" * 200,)))
    assert len(huge) == CONTEXT_WIDTH and huge.startswith("Title › hhh")


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("notes_2024.md", "notes 2024"),
        ("notes_2024", "notes 2024"),  # what an import makes of notes_2024.md (the stem)
        ("reading_list.PDF", "reading list"),
        ("Meeting_notes_v2.docx", "Meeting notes v2"),
        ("snake_case in the wild", "snake_case in the wild"),  # spaces: an author's title
        ("Node.js", "Node.js"),  # not a file name of ours
        ("间隔重复", "间隔重复"),
        ("  A title\nover two lines\t", "A title over two lines"),
        ("_", "_"),
    ],
)
def test_titles_that_are_file_names_read_as_titles(title: str, shown: str) -> None:
    assert readable_title(title) == shown


def test_file_name_titles_know_every_suffix_the_readers_read() -> None:
    for suffix in SUPPORTED_SUFFIXES:
        assert readable_title(f"my_notes{suffix}") == "my notes", suffix


def test_one_line_whatever_the_parts_hold() -> None:
    line = context_line(
        "Title\r\nwith a break", Locator(("Sec\ttion", "Sub\nsection"), chapter="Ch\u2028one")
    )
    assert line == "Title with a break › Ch one › Sec tion › Sub section"
    assert not re.search(r"\s{2,}|[\n\r\t]", line)
