"""Markdown: block kinds in order, leading H1 as title, front matter as metadata, code/tables whole."""

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


def test_fenced_code_with_blank_lines_is_one_whole_block() -> None:
    src = "Text.\n\n```js\nconst a = 1;\n\n\n// # not a heading\n- not a list\n```\n\nAfter."
    doc = md(src)
    assert kinds(doc) == [
        ("paragraph", "Text."),
        ("code", "```js\nconst a = 1;\n\n\n// # not a heading\n- not a list\n```"),
        ("paragraph", "After."),
    ]


def test_indented_code_keeps_its_indentation() -> None:
    doc = md("Para.\n\n    line one\n\n    line three\n")
    assert kinds(doc)[1] == ("code", "    line one\n\n    line three")


def test_table_is_kept_whole() -> None:
    table = "| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |"
    doc = md(f"Before.\n\n{table}\n\nAfter.")
    assert kinds(doc) == [("paragraph", "Before."), ("table", table), ("paragraph", "After.")]


def test_lists_bullet_ordered_and_nested_are_one_block_each() -> None:
    src = "- one\n- two\n  - nested\n\n  still item two\n- three\n\nbetween\n\n1. first\n2. second\n"
    doc = md(src)
    assert kinds(doc) == [
        ("list", "- one\n- two\n  - nested\n\n  still item two\n- three"),
        ("paragraph", "between"),
        ("list", "1. first\n2. second"),
    ]


def test_blockquote_is_a_quote_without_markers() -> None:
    doc = md("> quoted line\n> continues\nlazily\n>\n> second para\n\nafter")
    assert kinds(doc) == [("quote", "quoted line continues lazily\nsecond para"), ("paragraph", "after")]


def test_heading_levels_and_inline_markup_kept_as_written() -> None:
    doc = md("# T\n\n### Deep *heading* ###\n\nSome **bold** and [link](http://x).")
    assert kinds(doc) == [("heading", "Deep *heading*"), ("paragraph", "Some **bold** and [link](http://x).")]


def test_paragraph_lines_fold_including_cjk() -> None:
    doc = md("# 标题\n\n第一行\n第二行。\nThen English\nwords.")
    assert doc.title == "标题"
    assert kinds(doc) == [("paragraph", "第一行第二行。 Then English words.")]


def test_rules_and_html_comments_do_not_lose_text() -> None:
    doc = md("para one\n\n---\n\n<div>\nraw html\n</div>\n\npara two")
    assert kinds(doc) == [
        ("paragraph", "para one"),
        ("paragraph", "<div>\nraw html\n</div>"),
        ("paragraph", "para two"),
    ]


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
    assert code.startswith("```python\n") and code.endswith("```")
    assert "def retrievability(t, S):" in code and "return (1 + 19 / 81 * t / S) ** -0.5" in code
    (items,) = [p.text for p in doc.paragraphs if p.kind == "list"]
    assert items.count("\n- ") == 2 and "**Retrievability**" in items


def test_every_sample_parses_with_paragraphs() -> None:
    paths = sample_paths()
    assert set(EXPECTED_SAMPLES) <= {p.name for p in paths}
    for path in paths:
        doc = read_document(path)
        assert doc.paragraphs and doc.title, path


def test_html_comments_are_dropped_and_do_not_hide_the_leading_h1() -> None:
    doc = md("<!-- draft -->\n\n# Title\n\nBody.\n\n<!-- one -->\n<!-- two -->\n\n<div>kept</div>")
    assert doc.title == "Title"
    assert kinds(doc) == [("paragraph", "Body."), ("paragraph", "<div>kept</div>")]


def test_suffix_may_be_given_without_the_dot_and_in_any_case() -> None:
    for suffix in ("md", ".MD", "markdown"):
        doc = parse_text("# T\n\n- a\n- b", "/x/a.md", suffix=suffix)
        assert doc.title == "T" and kinds(doc) == [("list", "- a\n- b")]
    assert kinds(parse_text("# T\n\n- a", "/x/a.txt", suffix="txt")) == [
        ("paragraph", "# T"),
        ("paragraph", "- a"),
    ]


def test_an_empty_h1_does_not_take_the_title() -> None:
    doc = md("#\n\nBody.\n\n# Real Title\n\nMore.")
    assert doc.title == "Real Title"
    assert kinds(doc) == [("paragraph", "Body."), ("heading", "Real Title"), ("paragraph", "More.")]
