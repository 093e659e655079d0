"""Substrings inside words (the search service's `substring` list, core.services.search.substring):
a piece inside an English word, a number, a word of another script, a piece across
punctuation (checked against the text, punctuation included), Latin and Chinese side by side,
and a word imported after the vocabulary was read. Real SQLite files, the offline extractor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from search_support import import_texts

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
    import_texts(services, tmp_path / "articles", TEXTS)
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


# --- recall past the first words (the review's four reproductions, /tmp/review-tri) ----------

QAB_SHORT = ["qab" + a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijklmnopqrstuvwxyz"][:120]
QAB_TEXTS = {
    "glossary": "Glossary\n\n" + " ".join(QAB_SHORT) + ".\n",
    "one": "One\n\nThe unqabbalistic reading came first.\n",
    "two": "Two\n\nA superqabalisation of the text.\n",
    "three": "Three\n\nAn anti-megaqabbalist wrote it.\n",
}


def _in(
    services: Services, pieces: list[str], limit: int = 100, article_ids: tuple[int, ...] = ()
) -> set[str]:
    from core.storage.search import query as search_query

    pks = services.search.substrings.paragraphs(pieces, limit, article_ids, 500)
    return {Path(row.source_path).stem for row in search_query.paragraph_rows(pks).values()}


def test_words_past_the_first_hundred_are_searched_too(services: Services, tmp_path: Path) -> None:
    """120 short words hold "qab" in one article: the longer words of the others still count,
    with an article filter, and with a second piece that only the long words hold."""
    from core.domain.search import SearchFilters

    ids = import_texts(services, tmp_path / "articles", QAB_TEXTS)
    assert _in(services, ["qab"]) == {"glossary", "one", "two", "three"}
    assert _in(services, ["qab"], 100, (ids["two"],)) == {"two"}
    assert _in(services, ["qab", "abbal"]) == {"one", "three"}
    hits = services.search.find("qab", 10, SearchFilters(article_ids=(ids["two"],))).hits
    assert {Path(h.source_path).stem for h in hits} == {"two"}


def test_the_text_check_pages_on_past_the_decoys(services: Services, tmp_path: Path) -> None:
    """ "x86 64" and "x86_64" match the phrase x86 6* but not the piece "86-6": 120 of them in
    front (shorter, better by BM25) must not use up the limit before the text check."""
    decoys = "\n\n".join(f"The x86 64 bit build number {i}." for i in range(120))
    texts = {
        "spaced": f"Spaced\n\n{decoys}\n",
        "hyphen": "Hyphen\n\nOnly this long paragraph, which says a great deal about many other "
        "things first, names the x86-64 instruction set.\n",
    }
    import_texts(services, tmp_path / "articles", texts)
    assert _in(services, ["86-6"], 10) == {"hyphen"}
    assert {Path(h.source_path).stem for h in services.search.find("86-6", 10).hits} >= {"hyphen"}


def test_the_first_token_may_end_any_word(services: Services, tmp_path: Path) -> None:
    """52 short words end with "se": "lighthouse", longer, still begins the piece "se-mak"."""
    ends = [c + a + "se" for c in "bc" for a in "abcdefghijklmnopqrstuvwxyz"]
    texts = {"words": "Words\n\n" + " ".join(ends) + ".\n", "light": "Light\n\nThe lighthouse-maker came.\n"}
    import_texts(services, tmp_path / "articles", texts)
    assert _in(services, ["se-mak"]) == {"light"}
    assert {Path(h.source_path).stem for h in services.search.find("se-mak", 10).hits} == {"light"}


def test_words_no_paragraph_holds_any_more_take_no_place(services: Services, tmp_path: Path) -> None:
    """An article's words stay listed after it is imported again without them; more of them
    than a piece's whole word budget must not hide a word a later article holds."""
    from core.services.search import substring

    many = [
        "qab" + a + b + c
        for a in "abcdefghij"
        for b in "abcdefghijklmnopqrstuvwxyz"
        for c in "abcdefghijklmnopqrstuvwxyz"
    ]
    stale = many[: substring.MAX_WORDS + 100]
    folder = tmp_path / "articles"
    ids = import_texts(services, folder, {"glossary": "Glossary\n\n" + " ".join(stale) + ".\n"})
    (folder / "glossary.txt").write_text("Glossary\n\nNothing of the old list is left.\n", encoding="utf-8")
    assert services.library.reimport(ids["glossary"], extractor="offline").status == "new_version"
    import_texts(services, folder, {"later": "Later\n\nAn unqabbalistic reading.\n"})
    assert _in(services, ["qab"]) == {"later"}


def test_a_units_own_runs_stay_out_of_the_substring_vocabulary(lib: Services) -> None:
    """Substrings are searched in paragraphs: a unit's English words join the typo vocabulary,
    its other runs (numbers, other scripts) are not listed (as the schema-7 migration lists
    paragraphs only), so they never take a place in a substring's batch."""
    from core.storage.db import write_transaction
    from core.storage.search import index as search_index
    from core.storage.search import words as vocabulary

    unit_id = lib.library.units(lib.library.articles()[0].id)[0].id
    with write_transaction():
        search_index.reindex_unit(unit_id)  # as after an edit
        search_index.index_new_unit(unit_id + 10_000, "zebrafish q9z7 ёжик")
    assert "zebrafish" in vocabulary.every_word()
    tokens = vocabulary.every_token()
    assert "q9z7" not in tokens and "ёжик" not in tokens
    assert "0x7f" in tokens and "жираф" in tokens  # the paragraphs' are


def test_a_chinese_clause_with_its_comma_is_not_looked_for_inside_words(
    lib: Services, statements: list[tuple[str, list[object]]]
) -> None:
    """Its CJK runs match through their characters and bigrams; the clause as one phrase of every
    character (the comma made it a chunk that is not all CJK) cost 100 ms at 100k paragraphs."""
    hits = lib.search.find("复制中延长新链，光合作用", 5).hits
    assert hits and Path(hits[0].source_path).stem == "zh"
    phrases = [q for sql, params in statements if "MATCH" in sql for q in re.findall(r'"[^"]*"', str(params))]
    across = [q for q in phrases if "链" in q and "光" in q]  # phrases across the comma
    # only the `phrase` list's (the whole query); the substring list's was every character but the first
    assert phrases and across and all(q == '"复 制 中 延 长 新 链 光 合 作 用"' for q in across)
