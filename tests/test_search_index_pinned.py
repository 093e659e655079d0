"""What the index's analysis yields for a few texts, pinned: the columns, the BM25 lengths and
the vocabulary of English prose with signs, list bullets and non-breaking spaces, Latin letters
with and without an ASCII form, Traditional and Simplified Chinese with English, sentence ends
before a wide space and a file separator, and blank texts.

A speed change to core/text/analysis or core/text/indexing must leave these alone (the values
were written by the code before the bytes-table tokenising of this commit);
tests/test_search_index_analysis.py checks that the index side agrees with the query side, which
both change together.
"""

from __future__ import annotations

from core.text.indexing import index_rows

TEXTS = [
    "The Reader's notes: stability, difficulty; recall!\tNext line.\nAnd x86-64 or C++?",
    "• Item one\xa0and © 2024\n• Item two — done.  Résumé, naïve café.",
    "Łódź is in Poland.\xa0Then ÉCOLE and straße; ﬁne.",
    "葉綠體是光合作用的場所。叶绿体含有叶绿素！Chlorophyll absorbs light？",
    "end.\u2003Wide space after a mark; end.\x1cfile separator",
    "",
    "  \n ",
]
ROWS = [
    (
        "the reader s notes stability difficulty recall next line and x86 64 or c",
        "reader note stabil difficulti recal next line x86 64 c",
        "reade notes stabi diffi recal next line x86 64 c",
        10, 10, 4,
    ),
    (
        "item one and 2024 item two done resume naive cafe",
        "item one 2024 item two done resum naiv cafe",
        "item one 2024 item two done resum naive cafe",
        9, 9, 2,
    ),
    ("łodz is in poland then ecole and strasse fine", "łodz poland ecol strass fine", "łodz polan ecole stras fine", 5, 5, 3),
    (
        "叶 绿 体 是 光 合 作 用 的 场 所 叶 绿 体 含 有 叶 绿 素 chlorophyll absorbs light",
        "叶绿 绿体 体是 是光 光合 合作 作用 用的 的场 场所 叶绿 绿体 体含 含有 有叶 叶绿 绿素 chlorophyl absorb light",
        "chlor absor light",
        39, 3, 3,
    ),
    ("end wide space after a mark end file separator", "end wide space mark end file separ", "end wide space mark end file separ", 7, 7, 4),
    ("", "", "", 0, 0, 1),
    ("", "", "", 0, 0, 1),
]  # fmt: skip
WORDS = [
    "2024", "64", "a", "absorbs", "after", "and", "c", "cafe", "chlorophyll", "difficulty", "done",
    "ecole", "end", "file", "fine", "in", "is", "item", "light", "line", "mark", "naive", "next",
    "notes", "one", "or", "poland", "reader", "recall", "resume", "s", "separator", "space",
    "stability", "strasse", "the", "then", "two", "wide", "x86", "łodz",
]  # fmt: skip


def test_the_index_rows_of_these_texts_are_pinned() -> None:
    found = index_rows(TEXTS)
    assert [(r.words, r.stems, r.trunc, r.bag, r.trunc_count, r.sentences) for r in found.rows] == ROWS
    assert sorted(found.words) == WORDS


def test_each_text_alone_gives_its_pinned_row() -> None:
    for text, row in zip(TEXTS, ROWS, strict=True):
        (r,) = index_rows([text]).rows
        assert (r.words, r.stems, r.trunc, r.bag, r.trunc_count, r.sentences) == row
