"""What an import writes into the search index: every term findable, vocabularies and BM25
stats exactly what the query side computes, after imports, a rolled-back import, removal and
rebuild. Real SQLite files, the real import path, no mocks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.ingest import read_document
from core.services.bootstrap import Services
from core.storage import library as library_repo
from core.storage.db import db, write_transaction
from core.storage.models import Article
from core.storage.search import index as search_index
from core.storage.search import query as search_query
from core.text.analysis import STOP, analyse, bigrams, is_cjk, runs, stem, tokens

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_articles"

MIXED = """Light and leaves

Photosynthesis converts light energy into chemical energy; chlorophyll absorbs red and blue light.

光合作用是綠色植物利用光能，把二氧化碳和水轉化為葡萄糖的過程。

间隔重复是一种学习方法，指在逐渐拉长的时间间隔里反复复习同一内容。

The Calvin cycle fixes carbon dioxide. 卡尔文循环固定二氧化碳！ Ribulose bisphosphate is regenerated?
Café naïve Übung — ﬁne ＦＵＬＬ width １２３ words.
"""

LATER = """Tides

The gravitational pull of the moon raises ocean tides twice a day; 潮汐每天涨落两次。
"""


def _import(services: Services, path: Path) -> int:
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported", outcome.message
    assert outcome.article_id is not None
    return outcome.article_id


@pytest.fixture
def lib(services: Services, tmp_path: Path) -> Services:
    path = tmp_path / "mixed.txt"
    path.write_text(MIXED, encoding="utf-8")
    _import(services, path)
    for sample in sorted(SAMPLES.iterdir()):
        if sample.suffix in (".txt", ".md"):
            _import(services, sample)
    services.search.signals = False
    return services


def _texts() -> dict[int, str]:
    return {int(pk): str(text) for pk, text in db.execute_sql("SELECT id, text FROM paragraph")}


def _expected_columns(text: str) -> dict[int, list[str]]:
    """Column number -> tokens, written out from the query side's own functions."""
    stems: list[str] = []
    trunc: list[str] = []
    for run in runs(text):
        if is_cjk(run):
            stems.extend(bigrams(run))
        elif run not in STOP:
            stems.append(stem(run))
            trunc.append(run[:5])
    return {0: tokens(text), 1: stems, 2: trunc}


def _expected_vocab() -> Counter[tuple[str, int]]:
    """(term, column) -> number of paragraphs holding it."""
    counts: Counter[tuple[str, int]] = Counter()
    for text in _texts().values():
        for col, terms in _expected_columns(text).items():
            counts.update((t, col) for t in set(terms))
    return counts


def _vocab() -> Counter[tuple[str, int]]:
    names = {"words": 0, "stems": 1, "trunc": 2}
    rows = db.execute_sql("SELECT term, col, doc FROM search_para_vocab")
    return Counter({(str(t), names[str(c)]): int(d) for t, c, d in rows})


def _expected_stats() -> dict[str, int]:
    texts = list(_texts().values())
    analysed = [analyse(t) for t in texts]
    return {
        "docs": len(texts),
        "bag": sum(len(a.bag) for a in analysed),
        "trunc": sum(len(a.trunc) for a in analysed),
        "sentences": sum(a.sentences for a in analysed),
    }


def _stats() -> dict[str, int]:
    """The BM25 counters (the vocabulary stamp beside them only ever grows)."""
    rows = db.execute_sql("SELECT key, value FROM search_stats")
    return {str(k): int(v) for k, v in rows if k in search_index.STAT_KEYS}


def _listed_words() -> set[str]:
    return {str(w) for (w,) in db.execute_sql("SELECT word FROM search_words")}


def _expected_words() -> set[str]:
    """Every English word of two letters or more in the paragraphs and units (typo candidates)."""
    units = [search_index.unit_text(int(u)) or "" for (u,) in db.execute_sql("SELECT id FROM unit")]
    texts = [*_texts().values(), *units]
    return {w for t in texts for w in tokens(t) if len(w) >= 2 and w.isascii() and w.isalpha()}


def _listed_tokens() -> set[str]:
    return {str(t) for (t,) in db.execute_sql("SELECT token FROM search_tokens")}


def _expected_tokens() -> set[str]:
    """Every other run that is not CJK, of two characters or more (numbers, other scripts):
    with the English words, the vocabulary substrings are looked up in."""
    units = [search_index.unit_text(int(u)) or "" for (u,) in db.execute_sql("SELECT id FROM unit")]
    texts = [*_texts().values(), *units]
    return {
        w
        for t in texts
        for w in tokens(t)
        if len(w) >= 2 and not is_cjk(w) and not (w.isascii() and w.isalpha())
    }


def _check_index() -> None:
    for table in ("search_para", "search_unit"):
        db.execute_sql(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
    assert _stats() == _expected_stats()
    assert _vocab() == _expected_vocab()
    assert _expected_words() <= _listed_words()
    assert _expected_tokens() <= _listed_tokens() and "123" in _expected_tokens()
    assert db.execute_sql("SELECT COUNT(*) FROM search_para").fetchone()[0] == len(_texts())


def _matching(expr: str) -> set[int]:
    return {
        int(r[0]) for r in db.execute_sql("SELECT rowid FROM search_para WHERE search_para MATCH ?", (expr,))
    }


def test_every_english_and_chinese_term_is_findable(lib: Services) -> None:
    _check_index()
    texts = _texts()
    assert any(is_cjk(t) for t in texts.values()) and any(t.isascii() for t in texts.values())
    checked = 0
    for pk, text in texts.items():
        for run in set(runs(text)):
            if is_cjk(run):  # every 1-4 character piece of a Chinese run, as the query side asks
                pieces = {run[i : i + n] for n in (1, 2, 3, 4) for i in range(len(run) - n + 1)}
                for piece in pieces:
                    assert pk in _matching(search_query.term_expr(piece)), (piece, text)
                    checked += 1
                continue
            assert pk in _matching(search_query.term_expr(run)), (run, text)  # the word itself
            checked += 1
            if run not in STOP:  # its stem (the `terms` list)
                assert pk in _matching(search_query.any_of([stem(run)], [], [])), (run, text)
            if len(run) >= 5 and run in text.casefold():  # a substring inside it (the vocabulary)
                assert pk in lib.search.substrings.paragraphs([run[1:-1]], 10_000), (run, text)
    assert checked > 1000


@pytest.mark.parametrize(
    ("query", "stem", "paragraph_id"),
    [
        ("綠色植物", "mixed", "p_003"),  # p_001 is the title line
        ("逐渐拉长", "mixed", "p_004"),
        ("chlorophyll absorbs", "mixed", "p_002"),
        ("bisphosph", "mixed", "p_005"),  # inside a word: the substring list
        ("卡尔文循环", "mixed", "p_005"),
        ("cafe naive", "mixed", "p_005"),  # diacritics and full-width forms folded
        ("full width 123", "mixed", "p_005"),
    ],
)
def test_search_finds_the_paragraph(lib: Services, query: str, stem: str, paragraph_id: str) -> None:
    hits = lib.search.search(query, 5)
    assert hits and (Path(hits[0].source_path).stem, hits[0].paragraph_id) == (stem, paragraph_id)


def test_stats_and_vocab_follow_a_rolled_back_import_a_removal_and_a_rebuild(
    lib: Services, tmp_path: Path
) -> None:
    before = (_stats(), _vocab(), len(_texts()))
    words_before = _listed_words()
    path = tmp_path / "later.txt"
    path.write_text(LATER, encoding="utf-8")
    doc = read_document(path)
    with pytest.raises(RuntimeError), write_transaction():  # the import's writes, then a failure
        art = Article.create(
            source_path=doc.source_path,
            document_id=doc.document_id,
            content_hash=doc.content_hash,
            title=doc.title,
            paragraph_count=len(doc.paragraphs),
            added_at=1,
        )
        library_repo.insert_paragraphs(art.id, doc.paragraphs)
        search_index.index_article(art.id)
        raise RuntimeError("power cut")
    assert (_stats(), _vocab(), len(_texts())) == before
    assert _listed_words() == words_before  # the word list rolled back with the import
    _check_index()
    assert not lib.search.search("潮汐", 5)

    later = _import(lib, path)
    _check_index()
    assert lib.search.search("潮汐", 5)[0].article_id == later

    with write_transaction():
        search_index.remove_article(later)
        db.execute_sql("DELETE FROM paragraph WHERE article_id = ?", (later,))
    assert (_stats(), _vocab(), len(_texts())) == before
    _check_index()

    lib.search.rebuild_index()
    assert (_stats(), _vocab(), len(_texts())) == before
    _check_index()
    assert _listed_words() == _expected_words()  # words of the removed paragraphs are gone again


def test_bulk_fts_settings_reach_new_and_older_libraries(lib: Services, tmp_path: Path) -> None:
    for table in ("search_para",):
        assert search_index.fts_settings(table).items() >= search_index.FTS_SETTINGS.items()
    with write_transaction():  # a library indexed before the settings existed
        for table in ("search_para",):
            db.execute_sql(f"DELETE FROM {table}_config WHERE k = 'hashsize'")
    assert "hashsize" not in search_index.fts_settings("search_para")
    path = tmp_path / "later.txt"
    path.write_text(LATER, encoding="utf-8")
    _import(lib, path)
    for table in ("search_para",):
        assert search_index.fts_settings(table).items() >= search_index.FTS_SETTINGS.items()
    _check_index()
