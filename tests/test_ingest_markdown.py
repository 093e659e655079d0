"""Markdown: block kinds in order, leading H1 as title, front matter as metadata, code/tables whole.

Paragraph text is reader text: what a reader sees, the markup rendered away (emphasis, links,
code spans, images as alt text), with the styling kept as spans and each block's heading path
as its locator."""

from __future__ import annotations

import pytest

from core.domain import SourceDocument
from core.ingest import parse_text, read_document
from sample_articles import sample_paths


def md(text: str, name: str = "/notes/doc.md") -> SourceDocument:
    return parse_text(text, name, suffix=".md")


def kinds(doc: SourceDocument) -> list[tuple[str, str]]:
    return [(p.kind, p.text) for p in doc.paragraphs]


def test_leading_h1_is_the_title_and_not_a_paragraph() -> None:
    doc = md("# The Title\n\nBody.\n\n## Part\n\nMore.")
    assert doc.title == "The Title"
    assert kinds(doc) == [("paragraph", "Body."), ("heading", "Part"), ("paragraph", "More.")]
    assert [p.paragraph_id for p in doc.paragraphs] == ["p_001", "p_002", "p_003"]


def test_a_later_h1_gives_the_title_but_stays_a_heading() -> None:
    doc = md("Intro first.\n\n# Late Title\n\nBody.")
    assert doc.title == "Late Title"
    assert kinds(doc) == [("paragraph", "Intro first."), ("heading", "Late Title"), ("paragraph", "Body.")]


def test_second_h1_is_a_heading() -> None:
    doc = md("# One\n\n# Two\n\ntext")
    assert doc.title == "One"
    assert kinds(doc) == [("heading", "Two"), ("paragraph", "text")]


def test_without_h1_the_title_is_the_file_name() -> None:
    doc = md("## Only an H2\n\ntext", "/notes/my-notes.markdown")
    assert doc.title == "my-notes"
    assert kinds(doc)[0] == ("heading", "Only an H2")


def test_setext_headings() -> None:
    doc = md("Big Title\n=========\n\npara\n\nSmaller\n-------\n\nend")
    assert doc.title == "Big Title"
    assert kinds(doc) == [("paragraph", "para"), ("heading", "Smaller"), ("paragraph", "end")]


def test_front_matter_is_metadata_not_text() -> None:
    doc = md(
        "---\ntitle: 'Quoted: title'\nauthor: Ada\ntags: [a, \"b c\"]\naliases:\n  - one\n  - two\n"
        "empty:\n# a comment\n---\n\n# Heading\n\nBody."
    )
    assert doc.metadata["title"] == "Quoted: title"
    assert doc.metadata["author"] == "Ada"
    assert doc.metadata["tags"] == ["a", "b c"]
    assert doc.metadata["aliases"] == ["one", "two"]
    assert doc.metadata["empty"] == ""
    assert doc.metadata["front_matter_raw"].startswith("title: 'Quoted: title'")
    assert kinds(doc) == [("paragraph", "Body.")]
    assert doc.title == "Heading"


def test_fenced_code_with_blank_lines_is_one_whole_block_without_its_fences() -> None:
    src = "Text.\n\n```js\nconst a = 1;\n\n\n// # not a heading\n- not a list\n```\n\nAfter."
    doc = md(src)
    assert kinds(doc) == [
        ("paragraph", "Text."),
        ("code", "const a = 1;\n\n\n// # not a heading\n- not a list"),
        ("paragraph", "After."),
    ]


def test_indented_code_loses_the_marking_indent_and_keeps_its_own() -> None:
    doc = md("Para.\n\n    line one\n\n    line three\n        deeper\n")
    assert kinds(doc)[1] == ("code", "line one\n\nline three\n    deeper")


def test_table_is_kept_whole_one_row_a_line() -> None:
    table = "| a | **b** |\n|---|:-:|\n| 1 | 2 |\n| 3 | |"
    doc = md(f"Before.\n\n{table}\n\nAfter.")
    assert kinds(doc) == [("paragraph", "Before."), ("table", "a | b\n1 | 2\n3 |  "), ("paragraph", "After.")]
    assert [(s.start, s.end, s.kind) for s in doc.paragraphs[1].spans] == [(4, 5, "strong")]


def test_lists_bullet_ordered_and_nested_are_one_block_each() -> None:
    src = "- one\n- two\n  - nested\n\n  still item two\n- three\n\nbetween\n\n3. third\n4. fourth\n"
    doc = md(src)
    assert kinds(doc) == [
        ("list", "• one\n• two\n  • nested\n  still item two\n• three"),
        ("paragraph", "between"),
        ("list", "3. third\n4. fourth"),
    ]


def test_blockquote_is_a_quote_without_markers() -> None:
    doc = md("> quoted line\n> continues\nlazily\n>\n> second para\n\nafter")
    assert kinds(doc) == [("quote", "quoted line continues lazily\nsecond para"), ("paragraph", "after")]


def test_inline_markup_is_rendered_to_reader_text_with_spans() -> None:
    doc = md(
        "# T\n\n### Deep *heading* ###\n\nSome **bold** and [link](http://x), `code`, "
        "![a chart](c.png) and ~~old~~."
    )
    assert kinds(doc) == [
        ("heading", "Deep heading"),
        ("paragraph", "Some bold and link, code, a chart and old."),
    ]
    heading, para = doc.paragraphs
    assert [(s.start, s.end, s.kind) for s in heading.spans] == [(5, 12, "emphasis")]
    spans = [(para.text[s.start : s.end], s.kind, s.href) for s in para.spans]
    assert spans == [
        ("bold", "strong", None),
        ("link", "link", "http://x"),
        ("code", "code", None),
        ("a chart", "image", "c.png"),
        ("old", "strike", None),
    ]


def test_every_block_knows_its_heading_path() -> None:
    doc = md("# Title\n\nIntro.\n\n## A\n\nin A\n\n### A.1\n\nin A.1\n\n## B\n\nin B")
    assert [(p.text, p.locator.section) for p in doc.paragraphs] == [
        ("Intro.", ("Title",)),  # before the first heading: the title's section (issue 32)
        ("A", ("A",)),
        ("in A", ("A",)),
        ("A.1", ("A", "A.1")),
        ("in A.1", ("A", "A.1")),
        ("B", ("B",)),
        ("in B", ("B",)),
    ]


def test_paragraph_lines_fold_including_cjk() -> None:
    doc = md("# 标题\n\n第一行\n第二行。\nThen English\nwords.")
    assert doc.title == "标题"
    assert kinds(doc) == [("paragraph", "第一行第二行。 Then English words.")]


def test_rules_and_html_blocks_do_not_lose_text() -> None:
    doc = md("para one\n\n---\n\n<div>\nraw <em>html</em>\n</div>\n\npara two")
    assert kinds(doc) == [
        ("paragraph", "para one"),
        ("paragraph", "raw html"),  # an HTML block shows its text, never its tags
        ("paragraph", "para two"),
    ]
    assert [(s.start, s.end, s.kind) for s in doc.paragraphs[1].spans] == [(4, 8, "emphasis")]


def test_markdown_that_looks_like_front_matter_later_is_not_metadata() -> None:
    doc = md("Intro.\n\n---\nkey: value\n---\n")
    assert "key" not in doc.metadata
    assert any("key: value" in p.text for p in doc.paragraphs)


EXPECTED_SAMPLES = {
    "spaced-repetition.md": (
        "How Spaced Repetition Beats Forgetting",
        "en",
        ["paragraph", "heading", "paragraph", "heading", "paragraph", "paragraph", "heading", "paragraph",
         "list", "code", "paragraph", "heading", "paragraph"],
    ),
    "间隔重复.md": (
        "间隔重复：让记忆更持久的方法",
        "zh",
        ["paragraph", "heading", "paragraph", "heading", "paragraph", "paragraph", "heading", "paragraph",
         "list", "code", "paragraph", "heading", "paragraph"],
    ),
    # a .txt title is its first line (which stays a paragraph)
    "photosynthesis.txt": ("Photosynthesis: how plants store sunlight", "en", ["paragraph"] * 7),
    "光合作用.txt": ("光合作用：植物如何儲存陽光", "zh", ["paragraph"] * 7),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(EXPECTED_SAMPLES))
def test_sample_articles_parse_with_expected_titles_and_kinds(name: str) -> None:
    paths = {p.name: p for p in sample_paths()}
    doc = read_document(paths[name])
    title, language, expected_kinds = EXPECTED_SAMPLES[name]
    assert doc.title == title
    assert doc.language == language
    assert [p.kind for p in doc.paragraphs] == expected_kinds
    assert doc.encoding == "utf-8"


def test_spaced_repetition_sample_details() -> None:
    path = next(p for p in sample_paths() if p.name == "spaced-repetition.md")
    doc = read_document(path)
    assert doc.metadata["author"] == "MemoryRush team"
    assert doc.metadata["tags"] == ["memory", "learning"]
    headings = [p.text for p in doc.paragraphs if p.kind == "heading"]
    assert headings == ["The forgetting curve", "Why spacing works", "What a scheduler tracks", "Pitfalls"]
    (code,) = [p.text for p in doc.paragraphs if p.kind == "code"]
    assert code.startswith("# Retrievability after t days") and "```" not in code
    assert "\ndef retrievability(t, S):\n" in code
    assert "return (1 + 19 / 81 * t / S) ** -0.5" in code
    (items,) = [p for p in doc.paragraphs if p.kind == "list"]
    assert items.text.startswith("• ") and items.text.count("\n• ") == 2
    assert "Retrievability" in items.text and "**" not in items.text
    assert "Retrievability" in [items.text[s.start : s.end] for s in items.spans if s.kind == "strong"]
    assert items.locator.section == ("What a scheduler tracks",)


def test_every_sample_parses_with_paragraphs() -> None:
    paths = sample_paths()
    assert set(EXPECTED_SAMPLES) <= {p.name for p in paths}
    for path in paths:
        doc = read_document(path)
        assert doc.paragraphs and doc.title, path


def test_html_comments_are_dropped_and_do_not_hide_the_leading_h1() -> None:
    doc = md("<!-- draft -->\n\n# Title\n\nBody.\n\n<!-- one -->\n<!-- two -->\n\n<div>kept</div>")
    assert doc.title == "Title"
    assert kinds(doc) == [("paragraph", "Body."), ("paragraph", "kept")]


def test_suffix_may_be_given_without_the_dot_and_in_any_case() -> None:
    for suffix in ("md", ".MD", "markdown"):
        doc = parse_text("# T\n\n- a\n- b", "/x/a.md", suffix=suffix)
        assert doc.title == "T" and kinds(doc) == [("list", "• a\n• b")]
    assert kinds(parse_text("# T\n\n- a", "/x/a.txt", suffix="txt")) == [
        ("paragraph", "# T"),
        ("paragraph", "- a"),
    ]


def test_an_empty_h1_does_not_take_the_title() -> None:
    doc = md("#\n\nBody.\n\n# Real Title\n\nMore.")
    assert doc.title == "Real Title"
    assert kinds(doc) == [("paragraph", "Body."), ("heading", "Real Title"), ("paragraph", "More.")]
