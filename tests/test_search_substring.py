"""Substrings inside words (the search service's `substring` list, core.services.search.substring):
a piece inside an English word, a number, a word of another script, a piece across
punctuation (checked against the text, punctuation included), Latin and Chinese side by side,
and a word imported after the vocabulary was read. Real SQLite files, the offline extractor."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.services.bootstrap import Services

TEXTS = {
    "bio": "Biology\n\nPhotosynthesis converts light energy into chemical energy in the chloroplasts.\n",
    "cpu": "Chips\n\nThe x86-64 instruction set extends IA-32; opcode 0x7f is one byte.\n",
    "cpu2": "Other chips\n\nAn x86_64 build and an x86 64 bit one differ here.\n",
    "ru": "Звери\n\nЖираф живёт в саванне и ест листья акации.\n",
    "zh": "生物\n\nDNA聚合酶在复制中延长新链，光合作用在叶绿体中进行。\n",
    "accent": "Words\n\nA naïve reader and a café owner met.\n",
}


@pytest.fixture
def lib(services: Services, tmp_path: Path) -> Services:
    folder = tmp_path / "articles"
    folder.mkdir()
    for name, text in TEXTS.items():
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        (outcome,) = services.library.import_paths([path], extractor="offline")
        assert outcome.status == "imported", outcome.message
    return services


def _found(services: Services, *pieces: str) -> set[str]:
    """The file stems of the articles whose paragraphs the substring list gives."""
    from core.storage.search import query as search_query

    pks = services.search.substrings.paragraphs(list(pieces), 100)
    return {Path(row.source_path).stem for row in search_query.paragraph_rows(pks).values()}


@pytest.mark.parametrize(
    ("piece", "stems"),
    [
        ("ynthes", {"bio"}),  # inside an English word
        ("YNTHES", {"bio"}),  # case folded
        ("loroplas", {"bio"}),
        ("x7f", {"cpu"}),  # inside a token with digits (search_tokens)
        ("ираф", {"ru"}),  # inside a Cyrillic word (search_tokens)
        ("ïve", {"accent"}),  # folded as the index folds text: naïve is "naive"
        ("afé", {"accent"}),
        ("86-6", {"cpu"}),  # across punctuation: x86_64 and "x86 64" do not hold it
        ("x86_6", {"cpu2"}),
        ("NA聚合", {"zh"}),  # Latin and Chinese side by side
        ("合酶在", {"zh"}),
    ],
)
def test_a_piece_inside_a_word_finds_its_paragraph(lib: Services, piece: str, stems: set[str]) -> None:
    assert _found(lib, piece) == stems


def test_every_piece_must_be_there_and_short_or_absent_pieces_find_nothing(lib: Services) -> None:
    assert _found(lib, "ynthes", "loroplas") == {"bio"}
    assert _found(lib, "ynthes", "x7f") == set()
    assert _found(lib, "qqzx") == set()
    assert _found(lib, "yn") == set()  # under three characters


def test_a_word_imported_later_is_found_inside(lib: Services, tmp_path: Path) -> None:
    assert _found(lib, "ynthes") == {"bio"}  # the vocabulary is read now
    path = tmp_path / "later.txt"
    path.write_text("Later\n\nBioluminescence lights the deep sea.\n", encoding="utf-8")
    (outcome,) = lib.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported"
    assert _found(lib, "olumines") == {"later"}


def test_search_falls_back_to_pieces_inside_words(lib: Services) -> None:
    hits = lib.search.find("olumines ynthes", 5).hits + lib.search.find("ynthes", 5).hits
    assert {Path(h.source_path).stem for h in hits} == {"bio"}
    assert "Photosynthesis" in lib.search.find("ynthes", 5).hits[0].snippet
