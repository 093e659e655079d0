"""The index side's one-pass analysis (core.text.indexing.index_row) agrees with the query side.

The ranker reads BM25 lengths from search_stats and the query side builds match expressions
with `tokens`, `runs`, `stem` and `analyse`; index_row is the fast path that fills the index.
If the two ever disagree, a word stops being findable or the BM25 averages drift.
"""

from __future__ import annotations

import unicodedata

import opencc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.text import indexing as search_text
from core.text.analysis import (
    _RUN,
    STOP,
    TRUNC,
    Analysis,
    analyse,
    bigrams,
    is_cjk,
    normalize,
    runs,
    sentence_count,
    stem,
    tokens,
)
from core.text.indexing import index_row, index_rows
from core.text.sentences import SENTENCE_END as _SENTENCE_END
from core.text.sentences import sentence_pieces

# English, Simplified/Traditional Chinese, kana, Latin and Greek with diacritics, full-width
# forms, ligatures, case folding that decomposes (ǰ, İ, ΐ), every sentence end, odd spaces;
# signs NFKC keeps (’ • © — ・), letters it keeps (ł, ж, ß), kana that is no letter (・ ゛).
ALPHABET = list(
    "abcXYZ019 .!?;。！？；，、：（）…\n\t\u3000\u00a0\x1c\u0301光合作用綠葉记忆かなカナ𠀀𪚥éÉñüΐǰİﬁＡ１_-'\""
    "’•©—łжß・゛"
)
texts = st.text(alphabet=st.sampled_from(ALPHABET), max_size=40) | st.text(max_size=40)

SAMPLES = [
    "",
    "Dots.. then.\u00a0a wide space;\t\ttabs!\n\n x .y ?",  # sentence ends before any whitespace
    "   \n ",
    "Spaced repetition spreads reviews over increasing intervals. It works!",
    "光合作用是綠色植物利用光能的過程。葉綠素吸收紅光；",
    "The café's naïve Übermensch met Ærøskøbing. ﬁnance Ｆｕｌｌ-width １２３",
    "DNA复制发生在S期. Then mitosis; 然后是分裂",
    "end with a stop word and spaces.   ",
    "a",
    "。",
    ". . .",
    "ǰ İstanbul ΐ",
    "𠀀𪚥字 光",  # CJK outside the BMP, a one-character run
    "libxml2\u2019s API \u2022 \u00a9 1998\u20142003",  # signs outside ASCII between ASCII words
    "Łódź and Kraków; Пушкин wrote",  # letters outside ASCII that stay
    "カタ・カナ゛ and 中文",  # kana signs that are CJK tokens but no letters
    # a few characters without an ASCII form among ASCII words, read in their pieces alone
    "\u2022 Fixes (Miro Hron\u010dok),\nPatch (\u0141ukasz \u0141ukasz) caf\u00e9 \u0301x a\u0308 \u9673\u535a\u6797.",
    "\u0130 \u0390 x\u0345 \u0b47\u0b3e \u1100\u1161 \u0958 \u2022\u0301 \u309b \ufe70 \u00b5",
]


_T2S = opencc.OpenCC("t2s")


def simplified(char: str) -> str:
    """OpenCC's Simplified form of one character, followed until it stays the same."""
    for _ in range(3):
        step = _T2S.convert(char)
        if len(step) != 1 or step == char:
            break
        char = step
    return char


def reference_normalize(text: str) -> str:
    """The normalisation as first written (character by character): the contract."""
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(c for c in decomposed if not ("\u0300" <= c <= "\u036f"))
    composed = unicodedata.normalize("NFC", stripped)
    return "".join(simplified(c) if is_cjk(c) else c for c in composed)


def reference_columns(text: str) -> tuple[str, str, str]:
    words: list[str] = []
    stems: list[str] = []
    trunc: list[str] = []
    for run in _RUN.findall(reference_normalize(text)):
        if is_cjk(run):
            words.extend(run)
            stems.extend(bigrams(run))
        else:
            words.append(run)
            if run not in STOP:
                stems.append(stem(run))
                trunc.append(run[:TRUNC])
    return " ".join(words), " ".join(stems), " ".join(trunc)


def reference_analysis(text: str) -> Analysis:
    """The ranker's analysis as first written (run by run, sentence by sentence): the contract
    `analyse`'s list-at-a-time path for sentences without CJK must keep."""
    seq: list[str] = []
    sent: list[int] = []
    bag: list[str] = []
    trunc: list[str] = []
    words: list[str] = []
    pieces = [p for p in _SENTENCE_END.split(text) if p.strip()] or [text]
    for si, piece in enumerate(pieces):
        for run in _RUN.findall(reference_normalize(piece)):
            if is_cjk(run):
                seq.extend(run)
                sent.extend([si] * len(run))
                bag.extend([*run, *bigrams(run)])
                continue
            words.append(run)
            if run not in STOP:
                seq.append(stem(run))
                sent.append(si)
                bag.append(stem(run))
                trunc.append(run[:TRUNC])
    return Analysis(tuple(seq), tuple(sent), tuple(bag), tuple(trunc), len(pieces), tuple(words))


def check(text: str) -> None:
    row = index_row(text)
    assert normalize(text) == reference_normalize(text)
    assert runs(text) == _RUN.findall(reference_normalize(text))
    assert (row.words, row.stems, row.trunc) == reference_columns(text)
    assert row.words.split() == tokens(text)  # what the query side looks for in `words`
    a = analyse(text)  # what the ranker counts
    assert a == reference_analysis(text)
    assert (row.bag, row.trunc_count, row.sentences) == (len(a.bag), len(a.trunc), a.sentences)
    assert sentence_count(text) == (sum(1 for p in _SENTENCE_END.split(text) if p.strip()) or 1)
    assert sentence_pieces(text) == _SENTENCE_END.split(text)  # analyse's cut, without the lookbehind


@pytest.mark.parametrize("text", SAMPLES)
def test_samples_agree_with_the_query_side(text: str) -> None:
    check(text)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_any_text_agrees_with_the_query_side(text: str) -> None:
    check(text)


# ASCII with characters outside it that the analysis reads as ASCII wherever they stand (signs
# that only separate words: • \u00a0 — ‐ soft hyphen, zero-width space; letters whose normal
# form is ASCII: é Ã ß İ ¹ ﬁ ™) and ones it must read in context (ł ж, ½ -> 1⁄2, ¨ -> space and
# a combining mark, ・ a CJK token, ℃, ｶ and ㍿ whose normal forms are CJK, a combining acute)
SIGNS = list("abcXYZ019 .;'_-\n•\u00a0—‐\u00ad\u200b©→éÃßİ¹ﬁ™łж½¨・℃ｶ㍿\u0301")
signed = st.text(alphabet=st.sampled_from(SIGNS), max_size=30)


@settings(max_examples=400, deadline=None)
@given(signed)
def test_ascii_text_with_signs_agrees_with_the_query_side(text: str) -> None:
    check(text)


def test_columns_hold_each_kind_of_term() -> None:
    row = index_row("Photosynthesis in 綠葉: the leaves")  # Traditional, folded to Simplified
    assert row.words == "photosynthesis in 绿 叶 the leaves"
    assert row.stems == f"{stem('photosynthesis')} 绿叶 {stem('leaves')}"
    assert row.trunc == "photo leave"
    assert (row.bag, row.trunc_count, row.sentences) == (5, 2, 1)


def test_the_word_cache_never_changes_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    text = SAMPLES[2] + " " + SAMPLES[4]
    first = index_row(text)
    monkeypatch.setattr(search_text, "_WORD_CACHE_MAX", 3)  # cleared again and again
    search_text._WORD_CACHE.clear()
    assert index_row(text) == first
    assert len(search_text._WORD_CACHE) <= 3
    assert index_row(text) == first
    assert not any(is_cjk(w) for w in search_text._WORD_CACHE)  # CJK runs are not kept


batches = st.lists(texts | st.sampled_from(SAMPLES), max_size=6)


@settings(max_examples=300, deadline=None)
@given(batches)
def test_a_batch_gives_each_text_its_own_row(batch: list[str]) -> None:
    """index_rows analyses a batch's words once: each row is still the text's own (the
    reference columns, the query side's lengths), and `words` every run that is not CJK."""
    many = index_rows(batch)
    assert len(many.rows) == len(batch)
    for text, row in zip(batch, many.rows, strict=True):
        assert (row.words, row.stems, row.trunc) == reference_columns(text)
        a = analyse(text)
        assert (row.bag, row.trunc_count, row.sentences) == (len(a.bag), len(a.trunc), a.sentences)
    assert many.words == {run for text in batch for run in runs(text) if not is_cjk(run)}


def test_a_batch_with_a_small_cache_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    texts_ = SAMPLES * 3
    first = index_rows(texts_)
    monkeypatch.setattr(search_text, "_WORD_CACHE_MAX", 3)  # cleared again and again, mid-text
    search_text._WORD_CACHE.clear()
    assert index_rows(texts_) == first
    assert len(search_text._WORD_CACHE) <= 3
