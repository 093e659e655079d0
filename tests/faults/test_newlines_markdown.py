"""Newline styles and odd separators give stable ids; Markdown structure is kept whole."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import article_id_for, import_one, paragraphs_of, query, write

PARAS = ["First paragraph, line one\nand line two.", "Second paragraph.", "Third\nparagraph\nhere."]


def _variants(inputs: Path) -> dict[str, Path]:
    lf = "\n\n".join(PARAS) + "\n"
    mixed = (
        "First paragraph, line one\r\nand line two.\r\n\r\nSecond paragraph.\n\rThird\rparagraph\r\nhere.\n"
    )
    return {
        "lf": write(inputs / "lf.txt", lf),
        "crlf": write(inputs / "crlf.txt", lf.replace("\n", "\r\n")),
        "cr": write(inputs / "cr.txt", lf.replace("\n", "\r")),
        "mixed": write(inputs / "mixed.txt", mixed),
    }


def test_newline_style_never_changes_ids_or_text(home: Path, inputs: Path) -> None:
    files = _variants(inputs)
    result = import_one(home, inputs)
    assert result.returncode == 0, result.stderr
    stored = {name: paragraphs_of(home, article_id_for(home, path) or -1) for name, path in files.items()}
    assert len(stored["lf"]) == 3
    assert [p[0] for p in stored["lf"]] == ["p_001", "p_002", "p_003"]
    for name in ("crlf", "cr", "mixed"):
        assert stored[name] == stored["lf"], name
    hashes = {r[0] for r in query(home, "SELECT content_hash FROM article")}
    assert len(hashes) == 1  # the same normalised text


def test_line_and_page_separators_never_split_a_paragraph(home: Path, inputs: Path) -> None:
    text = (
        "Alpha one\u2028alpha two\u2029alpha three.\n\n"
        "Beta one\x0cbeta two\x0bbeta three\x1cbeta four\x85beta five.\n\n"
        "Gamma."
    )
    path = write(inputs / "separators.txt", text)
    assert import_one(home, path).returncode == 0
    paras = paragraphs_of(home, article_id_for(home, path) or -1)
    assert len(paras) == 3, paras
    assert paras[0][2].startswith("Alpha one") and paras[0][2].endswith("alpha three.")
    assert paras[1][2].startswith("Beta one") and paras[1][2].endswith("beta five.")
    assert not any(c in paras[1][2] for c in "\x0c\x0b\x1c\x85")  # control characters replaced
    assert paras[2][2] == "Gamma."


MARKDOWN = """---
title: Front Matter Title
author: "Ada Lovelace"
tags: [memory, evidence]
---

Setext Title
============

Intro paragraph with *emphasis*.

```python
def f():
    return 1


# a comment, not a heading
    return 2
```

| name | value |
|------|-------|
| a    | 1     |

| b    | 2     |

Sub section
-----------

Closing paragraph.
"""


def test_markdown_front_matter_code_tables_and_setext_headings(home: Path, inputs: Path) -> None:
    path = write(inputs / "structured.md", MARKDOWN)
    assert import_one(home, path).returncode == 0
    article = article_id_for(home, path)
    assert article is not None
    paras = paragraphs_of(home, article)
    texts = [t for _, _, t in paras]
    kinds = {t: k for _, k, t in paras}

    title, metadata_json = query(home, "SELECT title, metadata_json FROM article WHERE id = ?", (article,))[0]
    metadata = json.loads(metadata_json)
    assert metadata.get("author") == "Ada Lovelace"
    assert metadata.get("tags") == ["memory", "evidence"]
    assert not any("Front Matter Title" in t or "author:" in t or t.strip() == "---" for t in texts)

    assert not any(set(t.strip()) <= {"=", "-"} for t in texts), texts  # setext underlines are no paragraphs
    assert title == "Setext Title" or kinds.get("Setext Title") == "heading"
    assert kinds.get("Sub section") == "heading"

    code = [t for t in texts if "def f():" in t]
    assert len(code) == 1 and kinds[code[0]] == "code"
    assert "# a comment, not a heading" in code[0] and "return 2" in code[0]
    assert "\n\n" in code[0]  # blank lines inside the fence kept

    tables = [t for t in texts if "| name | value |" in t or ("name" in t and "value" in t)]
    assert len(tables) == 1 and kinds[tables[0]] == "table", texts
    assert "a" in tables[0] and "1" in tables[0]

    assert texts[-1] == "Closing paragraph."
    assert [p[0] for p in paras] == [f"p_{i:03d}" for i in range(1, len(paras) + 1)]


def test_markdown_with_crlf_gives_the_same_paragraphs(home: Path, inputs: Path) -> None:
    lf = write(inputs / "lf.md", MARKDOWN)
    crlf = write(inputs / "crlf.md", MARKDOWN.replace("\n", "\r\n"))
    assert import_one(home, inputs).returncode == 0
    assert paragraphs_of(home, article_id_for(home, crlf) or -1) == paragraphs_of(
        home, article_id_for(home, lf) or -1
    )
