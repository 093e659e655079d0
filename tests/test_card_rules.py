"""The card rules of the validator (core/validation/cards.py), one by one, in English and
Chinese: each is a named code in the report, with the severity the extractors act on."""

from __future__ import annotations

from typing import Any

import pytest
from card_support import one_card, one_paragraph

from core.domain import ArticleMemoryOutput, SourceDocument
from core.validation import validate
from core.validation.plain import render_plain, strip_furniture

EN = (
    "Masked arrays can be any subclass of ndarray (but not recarray). "
    "By default matplotlib still uses numpy.ma for missing data. "
    "The Calvin cycle fixes carbon dioxide because the enzyme RuBisCO binds it."
)
ZH = "光合作用是植物利用光能制造有机物的过程。因为叶绿素吸收红光，所以叶片呈绿色。"


def card(
    text: str, content: str, question: str, answer: str, kind: str = "qa", **unit: Any
) -> tuple[ArticleMemoryOutput, SourceDocument]:
    """`one_card` quoting `content` whole (tags "a b", "c d" and confidence 0.5 unless `unit`
    says otherwise), on one paragraph of `text`."""
    unit = {"tags": ("a b", "c d"), "confidence": 0.5, **unit}
    return one_card(content, content, question, answer, kind, **unit), one_paragraph(text)


def codes(out: ArticleMemoryOutput, d: SourceDocument, severity: str | None = None) -> set[str]:
    return {i.code for i in validate(out, d).issues if severity is None or i.severity == severity}


S1 = "Masked arrays can be any subclass of ndarray (but not recarray)."
S2 = "By default matplotlib still uses numpy.ma for missing data."
Z1 = "因为叶绿素吸收红光，所以叶片呈绿色。"


@pytest.mark.parametrize(
    ("text", "content", "question", "answer", "kind", "code"),
    [
        (EN, S1, 'What does the text say about "array"?', "subclass of ndarray", "qa", "template_question"),
        (ZH, Z1, "关于「叶绿素」，文中是怎么说的？", "吸收红光", "qa", "template_question"),
        (EN, S1, "What can masked arrays be?", S1, "qa", "answer_is_sentence"),
        (ZH, Z1, "为什么叶片呈绿色？", Z1, "qa", "answer_is_sentence"),
        (EN, S1, "What can masked arrays be?", "any subclass of ndarray " * 4, "qa", "answer_too_long"),
        (ZH, Z1, "为什么？", "叶绿素吸收红光" * 5, "qa", "answer_too_long"),
        (EN, S1, "What are masked arrays a subclass of, ndarray?", "ndarray", "qa", "answer_in_question"),
        (ZH, Z1, "叶绿素吸收什么光？红光", "红光", "qa", "answer_in_question"),
        (
            EN,
            S1,
            "Masked arrays can be ____ subclass of ndarray (but not recarray).",
            "any",
            "cloze",
            "stopword_answer",
        ),
        (ZH, Z1, "因为叶绿素吸收红光，____叶片呈绿色。", "所以", "cloze", "stopword_answer"),
        (
            EN,
            S1,
            "masked ____ can be any subclass of nd____ (but not rec____)",
            "array",
            "cloze",
            "cloze_blanks",
        ),
        (
            EN,
            S1,
            "Masked arrays can be any subclass of nd____ (but not recarray).",
            "array",
            "cloze",
            "cloze_broken_word",
        ),
        (
            EN,
            S2,
            "By default ____tplotlib still uses numpy.ma for missing data.",
            "ma",
            "cloze",
            "cloze_broken_word",
        ),
        (ZH, Z1, "因为叶绿素吸收红光，所以叶片呈绿色。", "叶绿素", "cloze", "cloze_blanks"),
    ],
)
def test_question_rules_are_errors(
    text: str, content: str, question: str, answer: str, kind: str, code: str
) -> None:
    out, d = card(text, content, question, answer, kind)
    assert code in codes(out, d, "error")


@pytest.mark.parametrize(
    ("text", "content", "question", "answer"),
    [
        (EN, S1, "Masked arrays can be any subclass of ____ (but not recarray).", "ndarray"),
        (EN, S2, "By default matplotlib still uses ____ for missing data.", "numpy.ma"),
        (ZH, Z1, "因为____吸收红光，所以叶片呈绿色。", "叶绿素"),
    ],
)
def test_a_whole_word_blank_passes_every_rule(text: str, content: str, question: str, answer: str) -> None:
    out, d = card(text, content, question, answer, "cloze")
    assert codes(out, d, "error") == set()


def test_a_blank_on_the_article_topic_is_a_warning() -> None:
    text = "Arrays hold values. Arrays can be masked. Masked arrays hide values. Arrays are fast."
    out, d = card(text, "Arrays can be masked.", "____ can be masked.", "Arrays", "cloze")
    assert "cloze_topic_term" in codes(out, d, "warning")
    zh = "光合作用很重要。光合作用产生氧气。光合作用需要光。"
    out, d = card(zh, "光合作用产生氧气。", "____产生氧气。", "光合作用", "cloze")
    assert "cloze_topic_term" in codes(out, d, "warning")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (">>> import numpy.ma as ma", "code_unit"),
        ("x = np.array([1, 2, 3]); y = ma.masked_where(x > 2, x)", "code_unit"),
        ("However, spacing cannot rescue material.", "dangling_opening"),
        ("It takes place mainly in the chloroplasts.", "dangling_opening"),
        ("但是天黑之后它很快就会停止。", "dangling_opening"),
        ("这一规律被称为遗忘曲线。", "dangling_opening"),
        ("**Stability** is the number of days.", "inline_markup"),
        ("Use :meth:`~email.policy.Policy.fold` to wrap headers.", "inline_markup"),
        ("[**Install pyenv**](https://github.com/pyenv/pyenv#installation) first.", "inline_markup"),
        ("The queen spoke (CNN) on Tuesday.", "page_furniture"),
        ("The law passed in 1998.[citation needed]", "page_furniture"),
        ("The law passed in 1998, when the masked arrays", "not_a_sentence"),
    ],
)
def test_unit_rules(content: str, code: str) -> None:
    out, d = card(content, content, "When did the law pass?", "1998")
    assert code in codes(out, d)


def test_code_is_an_error_and_the_rest_warnings() -> None:
    out, d = card(">>> x = 1", ">>> x = 1", "What is x?", "one")
    assert "code_unit" in codes(out, d, "error")
    out, d = card("However, it rose.", "However, it rose.", "What rose?", "prices")
    assert "dangling_opening" in codes(out, d, "warning")


def test_types_need_their_cue() -> None:
    plain = "The river flows north to the sea."
    out, d = card(plain, plain, "Where does the river flow?", "north", mtype="mechanism")
    assert "type_without_cue" in codes(out, d, "warning")
    out, d = card(plain, plain, "Where does the river flow?", "north", mtype="example")
    assert "type_without_cue" in codes(out, d, "warning")
    cause = "The river floods because the snow melts."
    out, d = card(cause, cause, "Why does the river flood?", "the snow melts", mtype="mechanism")
    assert "type_without_cue" not in codes(out, d)
    zh = "例如，水稻依靠光合作用生长。"
    out, d = card(zh, zh, "水稻依靠什么生长？", "光合作用", mtype="example")
    assert "type_without_cue" not in codes(out, d)


@pytest.mark.parametrize(
    ("tags", "code"),
    [
        (("a", "b", "c", "d", "e", "f"), "tag_count"),
        (("Array", "array"), "tag_variant"),
        (("array", "arrays"), "tag_variant"),
        (("ma", "subclass"), "tag_word_piece"),
    ],
)
def test_tag_rules(tags: tuple[str, ...], code: str) -> None:
    out, d = card(S1 + " " + S2, S1, "What can masked arrays be any subclass of?", "ndarray", tags=tags)
    assert code in codes(out, d, "warning")


def test_a_latin_tag_beside_chinese_is_a_whole_word() -> None:
    """Chinese text writes a Latin name against its characters ("PlayStation平台"): the tag is
    the whole word there, not a piece of a longer one; inside a Latin word it still is."""
    zh = "是2000年6月22日由索尼电脑娱乐发售的PlayStation平台专用游戏。"
    out, d = card(zh, zh, "它是哪个平台的游戏？", "PlayStation", tags=("PlayStation",))
    assert "tag_word_piece" not in codes(out, d, "warning")
    out, d = card(zh, zh, "它是哪个平台的游戏？", "PlayStation", tags=("Play",))
    assert "tag_word_piece" in codes(out, d, "warning")


def test_one_tag_is_enough() -> None:
    """Issue 30: tags group an article's cards; a unit about one key term has one tag, not one
    padded with generic words to reach two."""
    out, d = card(
        S1 + " " + S2, S1, "What can masked arrays be any subclass of?", "ndarray", tags=("masked array",)
    )
    assert "tag_count" not in codes(out, d, "warning")


def test_a_readers_own_edit_gets_warnings_only() -> None:
    out, d = card(EN, S1, 'What does the text say about "array"?', S1)
    report = validate(out, d, authored=True)
    assert {"template_question", "answer_is_sentence"} <= {i.code for i in report.issues}
    assert report.ok


def test_markup_renders_to_plain_text() -> None:
    assert render_plain("**Stability**: the number of days.") == "Stability: the number of days."
    assert (
        render_plain("[**Install pyenv**](https://github.com/pyenv/pyenv#installation) now.")
        == "Install pyenv now."
    )
    assert render_plain(
        "Call :meth:`~email.policy.Policy.fold` or :class:`Policy <email.policy.Policy>`."
    ) == ("Call fold or Policy.")
    assert render_plain("See ``numpy.ma`` and <b>this</b> &amp; `that`.") == "See numpy.ma and this & that."
    assert render_plain("snake_case_name and 2*3*4 stay") == "snake_case_name and 2*3*4 stay"


def test_furniture_is_removed() -> None:
    assert strip_furniture("LONDON, England (CNN) -- The queen spoke [citation needed] today.[2]") == (
        "The queen spoke today."
    )
    assert strip_furniture("Prices rose.[note 2] Scroll down for video.") == "Prices rose."
