"""What a large library changes in a search (core.services.search.termstats, every_word): a
common word must still be there but no BM25 order reads it, the rerank weighs it by the middle
of what its count can be, counts are read again once paragraphs change, a prefix many words
start with matches the shortest of them, and the phrase list's last word is a prefix only when
it was one in `all`.
"Large" is lowered to five paragraphs here; real SQLite files, the offline extractor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from search_support import import_texts

from core.services.bootstrap import Services
from core.services.search import every_word as every_word_module
from core.services.search import spell, termstats
from core.services.search.every_word import every_word
from core.services.search.spell import Speller
from core.storage.search import query as search_query
from core.storage.search import words as vocabulary

PARAGRAPHS = [
    "alpha beta beta gamma",
    "alpha beta delta epsilon",
    "alpha zeta gam",
    "alpha zeta gamma",
    "alpha zeta gammas",
    "alpha zeta gammaray",
    "alpha omega x86 and x86s",
    "alpha tide tide",
    "alpha tide",
    "alpha tide again",
    "alpha tile",
    "alpha lambda",
]


@pytest.fixture
def lib(services: Services, tmp_path: Path) -> Services:
    import_texts(services, tmp_path / "articles", {"lib": "Letters\n\n" + "\n\n".join(PARAGRAPHS) + "\n"})
    return services


@pytest.fixture
def large(lib: Services, monkeypatch: pytest.MonkeyPatch) -> Services:
    """The library counts as large: `alpha` (every paragraph) is a common word."""
    monkeypatch.setattr(termstats, "COMMON_MIN_DOCS", 5)
    return lib


def _texts(pks: list[int]) -> list[str]:
    rows = search_query.paragraph_rows(pks)
    return [rows[pk].text for pk in pks]


def _every_word(svc: Services, query: str, *, prefix: bool, k: int = 100) -> every_word_module.EveryWord:
    words = query.split()
    return every_word(svc.search.term_stats, words, words, prefix=prefix, k=k, article_ids=(), cap=500)


def test_a_common_word_must_be_there_but_no_bm25_order_reads_it(
    large: Services, statements: list[tuple[str, list[Any]]]
) -> None:
    stats = large.search.term_stats
    assert stats.common_terms("words", ["alpha", "beta"]) == {"alpha"}
    listed = _every_word(large, "beta alpha", prefix=False)
    assert _texts(listed.found) == ["alpha beta beta gamma", "alpha beta delta epsilon"]  # beta twice first
    ranked = [str(params[0]) for sql, params in statements if "bm25(" in sql]
    # alpha alone is a phrase no bm25() reads (a phrase with it is read through its rarest word)
    assert ranked and not any('"alpha"' in expr for expr in ranked)


def test_a_common_word_in_one_article(large: Services, tmp_path: Path) -> None:
    (other,) = import_texts(large, tmp_path / "other", {"other": "Other\n\nalpha beta here\n"}).values()
    words = ["beta", "alpha"]
    stats = large.search.term_stats
    only = every_word(stats, words, words, prefix=False, k=100, article_ids=(other,), cap=500)
    assert _texts(only.found) == ["alpha beta here"]
    newest = search_query.paragraphs_matching('words : "alpha"', 3, (other,), rank_by="")
    assert _texts([pk for pk, _ in newest]) == ["alpha beta here"]


def test_in_a_small_library_every_word_orders(lib: Services, statements: list[tuple[str, list[Any]]]) -> None:
    assert lib.search.term_stats.common_terms("words", ["alpha"]) == set()
    listed = _every_word(lib, "beta alpha", prefix=False)
    assert _texts(listed.found) == ["alpha beta beta gamma", "alpha beta delta epsilon"]
    assert any("bm25(" in sql and '"alpha"' in str(params[0]) for sql, params in statements)


def test_the_rerank_weighs_a_common_word_by_the_middle_of_what_its_count_can_be(large: Services) -> None:
    stats = large.search.term_stats
    docs = stats.current().docs
    threshold = stats.threshold(stats.current())
    assert threshold is not None
    middle = (threshold + 1 + docs) // 2
    assert stats.frequencies("words", ["alpha", "beta", "nowhere"]) == {"alpha": middle, "beta": 2}
    # a term known to be common (a common word's stem) is not counted
    assert stats.frequencies("stems", ["beta", "nowhere"], common=["nowhere"]) == {
        "beta": 2,
        "nowhere": middle,
    }


def test_counts_are_read_again_once_paragraphs_change(lib: Services, tmp_path: Path) -> None:
    stats = lib.search.term_stats
    assert stats.counts("words", ["beta"]) == {"beta": 2}
    import_texts(lib, tmp_path / "more", {"more": "More\n\nbeta again\n"})
    assert stats.counts("words", ["beta"]) == {"beta": 3}


def test_a_count_stops_at_its_cap_and_a_larger_cap_reads_on(lib: Services) -> None:
    stats = lib.search.term_stats
    assert stats.counts("words", ["alpha"], cap=3) == {"alpha": 3}
    assert stats.counts("words", ["alpha"], cap=100) == {"alpha": len(PARAGRAPHS)}


def test_a_prefix_many_words_start_with_matches_the_shortest(
    large: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(every_word_module, "MAX_COMPLETIONS", 2)
    listed = _every_word(large, "zeta gam", prefix=True)
    assert sorted(_texts(listed.found)) == ["alpha zeta gam", "alpha zeta gamma"]
    assert listed.unit_expr.endswith('"gam" *')  # units: FTS5's own prefix
    assert listed.phrase is not None and _texts(listed.phrase) == ["alpha zeta gam"]  # the word as typed


def test_a_prefix_in_a_small_library_is_fts5s_own(lib: Services) -> None:
    listed = _every_word(lib, "zeta gam", prefix=True)
    assert len(listed.found) == 4
    assert listed.phrase is not None and len(listed.phrase) == 4  # "zeta gam*" side by side


def test_the_phrase_ends_in_a_prefix_only_when_all_needed_one(lib: Services) -> None:
    listed = _every_word(lib, "zeta gam", prefix=True, k=1)  # the exact words found k: no prefix
    assert _texts(listed.found) == ["alpha zeta gam"]
    assert listed.phrase is not None and _texts(listed.phrase) == ["alpha zeta gam"]


def test_the_library_words_that_start_with_a_prefix_shortest_first(lib: Services) -> None:
    assert vocabulary.starting_with("gam", 3) == ["gam", "gamma", "gammas"]
    assert vocabulary.starting_with("x8", 5) == ["x86", "x86s"]  # tokens too
    assert vocabulary.starting_with("nothing", 5) == []


def test_the_speller_counts_tied_candidates_exactly(lib: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spell, "RANK_CAP", 1)  # tide (3 paragraphs) and tile (1) both reach it
    assert Speller().correct("tixe") == "tide"
    assert vocabulary.present("words", ["tide", "tixe"]) == {"tide"}
    assert vocabulary.counts("words", ["tide", "tile", "tixe"], cap=2) == {"tide": 2, "tile": 1}
