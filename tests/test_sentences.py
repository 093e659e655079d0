"""Sentence splitting: exact spans, abbreviations, initials, decimals, quotes and brackets in
English; terminators, closing quotes and commas in Chinese; linear on one-line text (the
figures are in bench/bench_extract.py; here only that it finishes and counts right)."""

from __future__ import annotations

import pytest

from core.extraction.offline.sentences import MAX_SENTENCE, split_sentences


def parts(text: str, lang: str = "en") -> list[str]:
    spans = split_sentences(text, lang)
    assert all(text[a:b] == text[a:b].strip() for a, b in spans)
    return [text[a:b] for a, b in spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Dr. Smith met J. K. Rowling in the U.S. on Jan. 5. She left early.",
            ["Dr. Smith met J. K. Rowling in the U.S. on Jan. 5.", "She left early."],
        ),
        (
            "The value was 3.14 in 2019. It rose to 4.5 later.",
            ["The value was 3.14 in 2019.", "It rose to 4.5 later."],
        ),
        ("Plants (see Fig. 2. Left.) grow. Next one.", ["Plants (see Fig. 2. Left.) grow.", "Next one."]),
        ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
        (
            "See e.g. the manual. Mr. Li agreed. No. 5 won.",
            ["See e.g. the manual.", "Mr. Li agreed.", "No. 5 won."],
        ),
        ("Item one\nItem two", ["Item one", "Item two"]),
    ],
)
def test_english_sentence_ends(text: str, expected: list[str]) -> None:
    assert parts(text) == expected


def test_no_unit_ends_at_an_abbreviation() -> None:
    for piece in parts("The talk by Prof. Ada Chen and Dr. B. Okafor, Ph.D. was long. It ended."):
        assert not piece.endswith(("Dr.", "Prof.", "B."))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("他说：“我们来了！”，然后离开。这是第二句！", ["他说：“我们来了！”，然后离开。", "这是第二句！"]),
        ("「第一句。」第二句。", ["「第一句。」", "第二句。"]),
        ("細胞分裂。細胞生長！", ["細胞分裂。", "細胞生長！"]),
    ],
)
def test_chinese_sentence_ends(text: str, expected: list[str]) -> None:
    assert parts(text, "zh") == expected


def test_no_chinese_sentence_starts_with_a_comma() -> None:
    text = "他问：“真的吗？”，她答：“是的！”、然后笑了。" * 5
    assert all(not p.startswith(("，", "、", ",")) for p in parts(text, "zh"))


def test_long_sentences_split_at_semicolons_never_at_commas() -> None:
    clause = "the river, the lake, the sea and the ocean all carry water"
    text = "; ".join([clause] * 8) + "."
    pieces = parts(text)
    assert len(pieces) > 1
    assert all(p.endswith((";", ".")) for p in pieces)
    assert all(len(p) <= MAX_SENTENCE["en"] for p in pieces)


def test_one_line_text_splits_into_every_sentence() -> None:
    assert len(split_sentences("Cells divide. " * 20000, "en")) == 20000
    wall = "word " * 100_000  # no punctuation at all: cut at spaces, bounded pieces
    assert all(b - a <= 3 * MAX_SENTENCE["en"] for a, b in split_sentences(wall, "en"))
