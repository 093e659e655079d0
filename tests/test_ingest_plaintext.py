"""Plain-text segmentation: blank lines split, line breaks fold (to nothing between CJK), ids and hashes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from core.ingest import parse_text, read_document


def texts(text: str, suffix: str = ".txt") -> list[str]:
    return [p.text for p in parse_text(text, "/tmp/a" + suffix, suffix=suffix).paragraphs]


def test_blank_lines_split_and_whitespace_only_lines_count_as_blank() -> None:
    assert texts("one\n\ntwo\n \t \nthree\n\n\n\nfour") == ["one", "two", "three", "four"]


def test_line_breaks_fold_to_one_space_with_surrounding_spaces_dropped() -> None:
    assert texts("a line   \n   continues\nhere") == ["a line continues here"]


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("中文\n中文", "中文中文"),
        ("结束。\n开始", "结束。开始"),
        ("引号」\n「下一句", "引号」「下一句"),
        ("中文\nEnglish", "中文 English"),
        ("English\n中文", "English 中文"),
        ("かな\nカナ", "かなカナ"),
        ("한국어\n문장", "한국어 문장"),
        ("全角，\n汉字", "全角，汉字"),
    ],
)
def test_cjk_line_breaks_fold_to_nothing_only_between_cjk(raw: str, want: str) -> None:
    assert texts(raw) == [want]


def test_line_and_page_separators_do_not_split_paragraphs() -> None:
    got = texts("alpha\u2028beta\u2029gamma\x0cdelta\x0bepsilon\x85zeta\n\nnext")
    assert len(got) == 2
    assert got[0].startswith("alpha\u2028beta\u2029gamma")
    assert got[0].endswith("zeta")
    assert not any(c in got[0] for c in "\x0c\x0b\x85")
    assert got[1] == "next"


def test_controls_are_replaced_but_tab_kept() -> None:
    (para,) = texts("bell\x07 esc\x1b[31m tab\there del\x7f c1\x9b")
    assert "\t" in para
    assert not any((ord(c) < 32 and c != "\t") or 0x7F <= ord(c) <= 0x9F for c in para)
    assert para.count("\ufffd") == 4


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize(
    ("suffix", "body"),
    [
        (".txt", "Title \u202eevil\n\nreport\u202etxt.exe \u2066x\u2069 and **bold** here."),
        (
            ".md",
            "# Title \u202eevil\n\n## Part \u2067y\n\nreport\u202etxt.exe \u2066x\u2069 and **bold** here.",
        ),
        (
            ".html",
            "<html><head><title>Title \u202eevil</title></head><body><main><h1>Title \u202eevil</h1>"
            "<h2>Part \u2067y</h2><p>report\u202etxt.exe \u2066x\u2069 and <b>bold</b> here, in a "
            "paragraph long enough to be the page's main text.</p></main></body></html>",
        ),
    ],
    ids=["txt", "md", "html"],
)
def test_bidi_overrides_are_replaced_one_for_one_by_every_reader(
    tmp_path: Path, suffix: str, body: str
) -> None:
    """What reorders a terminal (U+202A-E, U+2066-9) is not stored, in text, title or heading
    path: each becomes one U+FFFD, as a control character does, so a span still covers its
    words; the marks U+200E/F, which reorder nothing, stay."""
    path = tmp_path / f"a{suffix}"
    path.write_text(body.replace("report", "\u200freport"), encoding="utf-8")
    doc = read_document(path)
    para = next(p for p in doc.paragraphs if "report" in p.text)
    stored = [para.text, doc.title, *para.locator.section]
    assert not any(c in text for text in stored for c in BIDI), stored
    assert "\u200freport\ufffdtxt.exe \ufffdx\ufffd" in para.text
    assert doc.title == "Title \ufffdevil"
    marked = [para.text[s.start : s.end] for s in para.spans]
    assert marked == ([] if suffix == ".txt" else ["bold"])
    assert para.locator.section == (() if suffix == ".txt" else ("Part \ufffdy",))


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_give_same_document_as_lf(newline: str) -> None:
    lf = "First line\nsecond line.\n\n中文第一行\n第二行。\n\nLast.\n"
    a = parse_text(lf, "/x/a.txt")
    b = parse_text(lf.replace("\n", newline), "/x/a.txt")
    assert a == b
    assert [p.text for p in a.paragraphs] == ["First line second line.", "中文第一行第二行。", "Last."]


def test_ids_are_numbered_in_order_with_three_digits_then_more() -> None:
    doc = parse_text("\n\n".join(f"para {i}" for i in range(1001)), "/x/big.txt")
    ids = [p.paragraph_id for p in doc.paragraphs]
    assert ids[:3] == ["p_001", "p_002", "p_003"]
    assert ids[998:] == ["p_999", "p_1000", "p_1001"]
    assert [p.index for p in doc.paragraphs] == list(range(1001))
    assert all(p.kind == "paragraph" for p in doc.paragraphs)


def test_document_id_and_content_hash_follow_the_formula() -> None:
    text = "Alpha\r\nbeta.\r\n\r\nGamma.\r\n"
    doc = parse_text(text, "/abs/path/file.txt")
    normalised = "Alpha\nbeta.\n\nGamma.\n"
    assert doc.content_hash == hashlib.sha1(normalised.encode()).hexdigest()
    assert (
        doc.document_id
        == "doc_" + hashlib.sha1(("/abs/path/file.txt\0" + normalised).encode()).hexdigest()[:12]
    )
    other = parse_text(text, "/abs/path/other.txt")
    assert other.content_hash == doc.content_hash and other.document_id != doc.document_id


def test_title_is_the_file_stem_for_plain_text_and_language_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "光合作用 notes.txt"
    path.write_text("光合作用是植物利用光能的过程。\n\n它释放氧气。\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "光合作用 notes"
    assert doc.language == "zh"
    assert doc.source_path == str(path.resolve())
    assert parse_text("An English paragraph.", "/x/e.txt").language == "en"


def test_read_document_uses_the_resolved_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "a.txt"
    path.write_text("Same text.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "sub")
    relative = read_document(Path("a.txt"))
    dotted = read_document(tmp_path / "sub" / ".." / "sub" / "a.txt")
    assert relative.source_path == dotted.source_path == str(path.resolve())
    assert relative.document_id == dotted.document_id


def test_text_paragraphs_equal_the_input_paragraphs_for_the_evaluation_format(tmp_path: Path) -> None:
    # ../shared/eval writes paragraphs joined by blank lines; artifacts must give them back.
    paras = [
        "The first paragraph, with \u201ccurly quotes\u201d and a tab\tinside.",
        "第二段是中文，包含标点符号：逗号，句号。还有English混排。",
        "A third one\u2028with a line separator and trailing dots...",
        "# Not a heading in a .txt file",
        "- not a list either",
    ]
    path = tmp_path / "eval.txt"
    path.write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    assert [p.text for p in read_document(path).paragraphs] == paras


def test_leading_bom_character_is_dropped_but_inner_ones_kept() -> None:
    assert texts("\ufeffHello\ufeffworld") == ["Hello\ufeffworld"]
    assert texts("\u200b\n\nreal text") == ["real text"]


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        (
            "Photosynthesis: how plants store sunlight\n\nPlants turn light into sugar.",
            "Photosynthesis: how plants store sunlight",
        ),
        ("  光合作用  \n\n光合作用是绿色植物利用光能的过程。", "光合作用"),
        ("Plants turn light into sugar.\n\nThey need water.", "notes"),  # a sentence, not a title
        ("A heading\nthat goes on\n\nBody text.", "notes"),  # two lines: a paragraph
        ("Only a title", "notes"),  # nothing follows: it is the text
        ("Why do leaves turn red?\n\nBecause the green fades.", "notes"),  # a question
        ("x" * 81 + "\n\nBody text.", "notes"),  # too long for a title
    ],
)
def test_a_txt_title_is_its_first_line_when_that_looks_like_one(raw: str, title: str) -> None:
    doc = parse_text(raw, "/tmp/notes.txt", suffix=".txt")
    assert doc.title == title
    # the first line stays the first paragraph: the paragraphs are exactly the input's blocks
    assert [p.text for p in doc.paragraphs] == [" ".join(b.split()) for b in raw.split("\n\n")]
