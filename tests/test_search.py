"""Search behaviour: Chinese 1-4 character terms, English words and prefixes, mixed text,
hostile input, and snippets. Real SQLite files, the real offline extractor, no mocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from search_support import import_texts

from core.services.bootstrap import Services
from core.services.search.snippet import make_snippet
from core.text.chinese import fold_chinese

SIMPLIFIED = """光合作用

光合作用是绿色植物利用光能，把二氧化碳和水转化为葡萄糖并释放氧气的过程。

叶绿体是进行光合作用的细胞器，其中的叶绿素吸收红光和蓝光。

线粒体负责细胞呼吸，把葡萄糖分解并释放能量。
"""

TRADITIONAL = """記憶

間隔重複是一種學習技巧，複習的間隔逐漸拉長。

葉綠體裡的葉綠素吸收紅光與藍光。

遺忘曲線顯示記憶在第一天下降最快。
"""

ENGLISH = """Photosynthesis

Photosynthesis converts light energy into chemical energy stored in sugar inside the chloroplasts.

The Calvin cycle fixes carbon dioxide into organic molecules; running the cycle needs ATP.

Mitochondria break sugar down again during cellular respiration and release energy.

A ratio a:b of 3:1 and the word AND appear here, with NEAR( and a "quote.
"""

MIXED = """Mixed notes

FSRS 算法 uses 记忆稳定性 (memory stability) to schedule reviews.

Anki 的 prop:r<0.9 搜索 finds weak cards.
"""


def _paragraphs(services: Services, query: str, limit: int = 10) -> list[tuple[str, str]]:
    """(file stem, paragraph id) of the hits, in order, each once."""
    out: list[tuple[str, str]] = []
    for hit in services.search.search(query, limit):
        key = (Path(hit.source_path).stem, hit.paragraph_id)
        if key not in out:
            out.append(key)
    return out


@pytest.fixture
def library(services: Services, tmp_path: Path) -> Services:
    import_texts(
        services, tmp_path / "articles", {"zh": SIMPLIFIED, "zht": TRADITIONAL, "en": ENGLISH, "mixed": MIXED}
    )
    services.search.signals = False
    return services


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("氧", ("zh", "p_002")),  # 1 character
        ("叶绿", ("zh", "p_003")),  # 2
        ("叶绿体", ("zh", "p_003")),  # 3
        ("光合作用", ("zh", "p_002")),  # 4
        ("葡萄糖", ("zh", "p_002")),
        ("叶", ("zht", "p_003")),  # Simplified 叶 finds the Traditional article's 葉
        ("線", ("zht", "p_004")),  # Traditional 1
        ("葉綠", ("zht", "p_003")),  # Traditional 2
        ("葉綠體", ("zht", "p_003")),  # Traditional 3
        ("遺忘曲線", ("zht", "p_004")),  # Traditional 4
    ],
)
def test_chinese_terms_of_one_to_four_characters(
    library: Services, query: str, expected: tuple[str, str | None]
) -> None:
    hits = _paragraphs(library, query)
    stem, pid = expected
    if pid is None:
        assert all(s != stem for s, _ in hits)
    else:
        assert (stem, pid) in hits[:2], hits
        # every hit really contains the term (a phrase, not scattered characters)
        for hit in library.search.search(query, 10):
            text = library.library.paragraph(hit.article_id, hit.paragraph_id)
            assert text is not None and fold_chinese(query) in fold_chinese(text.text)


def test_chinese_phrase_order_matters(library: Services) -> None:
    assert _paragraphs(library, "绿叶") == []  # 叶绿 is in the text, 绿叶 is not


def test_english_words_prefixes_and_stems(library: Services) -> None:
    assert _paragraphs(library, "photosynthesis")[0][0] == "en"
    assert ("en", "p_002") in _paragraphs(library, "chloro")  # prefix of the last word
    assert _paragraphs(library, "Calv")[0] == ("en", "p_003")
    assert _paragraphs(library, "mitochondria respir")[0] == ("en", "p_004")
    assert ("en", "p_003") in _paragraphs(library, "run")  # "running" by its stem
    assert _paragraphs(library, "CHLOROPLASTS")[0] == ("en", "p_002")  # case folded


def test_substring_inside_a_word_needs_three_characters(library: Services) -> None:
    assert ("en", "p_002") in _paragraphs(library, "ynthes")  # the substring list (vocabulary)


def test_mixed_language_text_and_queries(library: Services) -> None:
    assert _paragraphs(library, "FSRS 记忆")[0] == ("mixed", "p_002")
    assert _paragraphs(library, "稳定性 stability")[0] == ("mixed", "p_002")
    assert _paragraphs(library, "anki 搜索")[0] == ("mixed", "p_003")
    assert ("mixed", "p_002") in _paragraphs(library, "memory stability schedule 算法")


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "AND",
        "a:b",
        "*",
        "NEAR(",
        "OR",
        "NOT",
        "(((",
        ")",
        "^",
        "words:",
        "stems : x",
        '"',
        "''",
        "-",
        "+",
        "x\x00y",
        "\x1b[31m",
        "   ",
        "",
        "NEAR(a b, 3)",
        "{words}: a",
        "a* OR b*",
        "🙂",
        "\u200b",
        "col:" * 50,
        "光" * 300,
        "a " * 300,
    ],
)
def test_hostile_queries_never_raise(library: Services, query: str) -> None:
    hits = library.search.search(query, 5)
    assert isinstance(hits, list)
    for hit in hits:
        assert "\x1b" not in hit.snippet and "\x00" not in hit.snippet


def test_query_syntax_words_are_plain_words(library: Services) -> None:
    assert ("en", "p_005") in _paragraphs(library, "AND")
    assert _paragraphs(library, "NEAR(")[0] == ("en", "p_005")
    assert _paragraphs(library, "a:b")[0] == ("en", "p_005")
    assert _paragraphs(library, '"quote')[0] == ("en", "p_005")


def test_empty_and_unknown_queries_find_nothing(library: Services) -> None:
    assert library.search.search("", 5) == []
    assert library.search.search("!!! ??? ，。", 5) == []
    assert library.search.search("xylophonequartz", 5) == []


def test_limit_is_respected_and_scores_descend(library: Services) -> None:
    hits = library.search.search("光", 2)
    assert len(hits) <= 2
    hits = library.search.search("energy sugar light", 10)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_snippet_highlights_the_match_safely() -> None:
    text = "Before " + "filler " * 40 + "the \x1b[31mchloroplast\x07 holds chlorophyll. " + "tail " * 40
    snippet, spans = make_snippet(text, "chloro")
    assert "\x1b" not in snippet and "\x07" not in snippet
    assert spans, snippet
    assert all(snippet[s:e].lower().startswith("chloro") for s, e in spans)
    assert len(snippet) < 260
    snippet, spans = make_snippet("叶绿体是进行光合作用的细胞器。", "光合作用")
    assert [snippet[s:e] for s, e in spans] == ["光合作用"]


def test_searches_from_worker_threads_agree(library: Services) -> None:
    from concurrent.futures import ThreadPoolExecutor

    queries = [
        "photosynthesis energy in the chloroplasts",
        "叶绿体是进行光合作用的细胞器",
        "memory stability schedule",
    ] * 4
    expected = [[(h.paragraph_id, h.unit_id) for h in library.search.search(q, 5)] for q in queries]
    library.search._cache.clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(
            pool.map(lambda q: [(h.paragraph_id, h.unit_id) for h in library.search.search(q, 5)], queries)
        )
    assert got == expected


def test_a_paragraph_stays_in_the_results_beside_a_unit_placed_at_it(library: Services) -> None:
    """The paragraph matches every word; a unit quoting it matched one (in its question) and
    stood in for the paragraph, whose text then dropped out. Now the paragraph is shown, and
    the unit before it only when the unit holds every word too."""
    article = next(a for a in library.library.articles() if a.source_path.endswith("en.txt"))
    para = next(p for p in library.library.paragraphs(article.id) if "Calvin" in p.text)
    unit = next(
        u for u in library.library.units(article.id) if u.evidence[0].paragraph_id == para.paragraph_id
    )

    def edit(content: str, question: str) -> list[tuple[int | None, str]]:
        library.curation.edit(
            unit.id,
            content=content,
            memory_type=unit.memory_type,
            tags=unit.tags,
            questions=[(question, "ATP", "qa")],
        )
        hits = library.search.search("Calvin cycle ATP", 10)
        return [(h.unit_id, h.snippet) for h in hits if h.paragraph_id == para.paragraph_id]

    here = edit("It runs in the stroma.", "Which cycle needs ATP?")
    assert [uid for uid, _ in here] == [None], here
    assert "Calvin" in here[0][1]
    here = edit("The Calvin cycle runs on ATP.", "What does the Calvin cycle run on?")
    assert [uid for uid, _ in here] == [unit.id, None], here
