"""The Article screen's word cursor in Chinese moves by segmented word, as it does by word in
English (issue 32, item 4: it moved one character at a time), so a cloze of "the word at the
cursor" blanks a whole word."""

from __future__ import annotations

from pathlib import Path

from conftest import imported, running, settle

from core.domain.export import READER
from core.services.bootstrap import Services
from tui.screens.article import ArticleScreen

ARTICLE = "# 记忆\n\n艾宾浩斯在1885年发表了遗忘曲线。\n\n间隔重复能让记忆保存得更久。\n"


async def test_right_moves_by_word_and_a_cloze_blanks_the_whole_word(svc: Services, tmp_path: Path) -> None:
    article_id = imported(svc, tmp_path / "记忆.md", ARTICLE)
    async with running(svc) as (app, pilot):
        await pilot.press("l", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ArticleScreen)
        # 艾宾浩斯 · 在 · 1885 · 年 · 发表 · 了 · 遗忘曲线: six words on, then select it and cloze
        await pilot.press("home", *["right"] * 6, "v", "c")
        await settle(pilot)
    mine = [u for u in svc.library.units(article_id) if u.extractor == READER]
    assert [(q.question, q.expected_answer) for u in mine for q in u.questions] == [
        ("艾宾浩斯在1885年发表了____。", "遗忘曲线")
    ]


def test_english_words_are_as_before() -> None:
    from tui.widgets.text_cursor import words

    text = "Ebbinghaus's well-known curve (1885) fell — fast."
    assert [text[a:b] for a, b in words(text)] == [
        "Ebbinghaus's",
        "well-known",
        "curve",
        "1885",
        "fell",
        "fast",
    ]
    mixed = "用Anki复习间隔重复卡片"
    assert [mixed[a:b] for a, b in words(mixed)] == ["用", "Anki", "复习", "间隔", "重复", "卡片"]
