"""HTML read as a tree (web pages, EPUB chapters): what the tree walk must not lose."""

from __future__ import annotations

from pathlib import Path

from core.ingest import read_document
from sample_articles.epub import chapter, epub

LONG = "The spacing effect is the finding that reviews spread over time are remembered longer. " * 3
COMMENTED = (
    f"<p>Hello <!-- a note --> world, and a sentence after a comment. {LONG}</p>"
    "<p>Second<?php echo 1 ?> part, after a processing instruction.</p>"
)


def test_text_after_a_comment_in_a_web_page_is_read(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(f"<html><head><title>T</title></head><body><main>{COMMENTED}</main></body></html>")
    texts = [p.text for p in read_document(page).paragraphs]
    assert texts[0].startswith("Hello world, and a sentence after a comment.")
    assert texts[1] == "Second part, after a processing instruction."


def test_text_after_a_comment_in_an_epub_chapter_is_read(tmp_path: Path) -> None:
    book = tmp_path / "book.epub"
    book.write_bytes(epub([chapter("One", COMMENTED)], folder=""))
    texts = [p.text for p in read_document(book).paragraphs]
    assert any(t.startswith("Hello world, and a sentence after a comment.") for t in texts), texts
    assert "Second part, after a processing instruction." in texts


def _blocks(html: str) -> list[tuple[str, str]]:
    from core.ingest.html_blocks import convert_tree
    from core.ingest.html_parse import parse_page

    return [(b.kind, b.text) for b in convert_tree(parse_page(html).root).blocks]


def test_a_hidden_rule_or_page_break_marker_splits_nothing() -> None:
    """A page-break marker (EPUB) or a hidden <hr> is not read at all: the text around it stays
    one paragraph, one list line. A review found the tree walk's fast path for block elements
    ending a paragraph at such an <hr>'s end; a plain <hr> does end one."""
    assert _blocks('<div>page 12<hr epub:type="pagebreak"/>continues</div>') == [
        ("paragraph", "page 12continues")
    ]
    assert _blocks('<div>page 12<hr type="pagebreak">continues</div>') == [("paragraph", "page 12continues")]
    assert _blocks("<ul><li>a<hr hidden>b</li></ul>") == [("list", "• ab")]
    assert _blocks("中<hr hidden>中") == [("paragraph", "中中")]
    assert _blocks("<div>above<hr>below</div>") == [("paragraph", "above"), ("paragraph", "below")]
    assert _blocks('<div>a<br clear="all">b<br>c</div>') == [("paragraph", "a\nb\nc")]
    assert _blocks('<ol><li value="3">x</li><li>y</li></ol><li>alone</li>') == [
        ("list", "1. x\n2. y"),
        ("paragraph", "alone"),
    ]


def test_a_paragraph_before_the_first_heading_sits_in_the_pages_title_section(tmp_path: Path) -> None:
    """Issue 32, item 3: a page whose body opens with a paragraph before its first heading gave
    that paragraph an empty locator (no place in an export's location field, nor an agent's)."""
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Spacing</title></head><body><main>"
        f"<p>An opening paragraph. {LONG}</p><h2>Why it works</h2><p>Under a heading. {LONG}</p>"
        "</main></body></html>"
    )
    doc = read_document(page)
    where = [(p.text.split(".")[0], p.locator.section) for p in doc.paragraphs]
    assert where == [
        ("An opening paragraph", ("Spacing",)),
        ("Why it works", ("Why it works",)),
        ("Under a heading", ("Why it works",)),
    ]


def test_the_body_under_a_leading_h1_taken_as_the_title_sits_in_its_section(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Site | Spacing</title></head><body><main>"
        f"<h1>The spacing effect</h1><p>First words. {LONG}</p><h2>Why</h2><p>Then. {LONG}</p>"
        "</main></body></html>"
    )
    doc = read_document(page)
    assert doc.title == "The spacing effect"
    assert [p.locator.section for p in doc.paragraphs] == [("The spacing effect",), ("Why",), ("Why",)]
