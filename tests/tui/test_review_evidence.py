"""The evidence under a revealed card: each paragraph says where it sits, but not the article's
title a second time (a web page's text before its first heading sits in the title's section)."""

from __future__ import annotations

from core.domain.model import Locator, SourceParagraph
from tui.widgets.review_card import evidence_view


def test_the_evidence_says_where_a_paragraph_sits_but_not_the_title_twice() -> None:
    title = "zlib Usage Example"
    intro = SourceParagraph("p_001", "We often get questions.", locator=Locator(section=(title,)))
    later = SourceParagraph("p_014", "The first thing we do.", locator=Locator(section=("Compression",)))
    plain = SourceParagraph("p_020", "No heading here.")
    lines = evidence_view(title, [(intro, []), (later, []), (plain, [])]).plain.split("\n")
    assert lines == [
        f"Evidence  {title}",
        "p_001  We often get questions.",
        "p_014  Compression",
        "The first thing we do.",
        "p_020  No heading here.",
    ]
