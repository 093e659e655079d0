"""Core ideas and the extractive summary, built from the selected units.

`why_it_matters` is grounded in the text: the role the sentence plays (definition, cause,
example, contrast, result, statement) and the key terms it links, with how often the text
returns to them.
"""

from __future__ import annotations

from core.domain import CoreIdea, EvidenceSpan
from core.extraction.offline import cues
from core.extraction.offline.salience import Scored
from core.text.cjk import HAN_RE

_ROLE_EN = {
    "definition": "Defines {terms}: the text builds on this term.",
    "cause": "Explains a cause or mechanism linking {terms}.",
    "example": "Gives a concrete example of {terms}, which makes the idea easier to recall.",
    "contrast": "Draws a contrast involving {terms}, marking where the text changes direction.",
    "result": "States a finding or result about {terms}.",
    "statement": "A central statement about {terms}, the terms the text returns to most.",
}
_ROLE_ZH_HANT = {
    "definition": "給出{terms}的定義，後文以此為基礎。",
    "cause": "說明{terms}之間的原因或機制。",
    "example": "用具體例子說明{terms}，使概念更易記住。",
    "contrast": "在{terms}之間形成對比，標出文章的轉折。",
    "result": "陳述關於{terms}的發現或結果。",
    "statement": "關於{terms}的核心論述，這些是全文反覆出現的關鍵詞。",
}
_ROLE_ZH = {
    "definition": "给出{terms}的定义，后文以此为基础。",
    "cause": "说明{terms}之间的原因或机制。",
    "example": "用具体例子说明{terms}，使概念更易记住。",
    "contrast": "在{terms}之间形成对比，标出文章的转折。",
    "result": "陈述关于{terms}的发现或结果。",
    "statement": "关于{terms}的核心论述，这些是全文反复出现的关键词。",
}


def _is_zh(text: str) -> bool:
    return bool(HAN_RE.search(text))


def why_it_matters(item: Scored, topics: tuple[str, ...]) -> str:
    """The role the unit plays and the article topics it links (its first three tags)."""
    s = item.sentence
    names = list(topics[:3])
    zh = _is_zh(s.content)
    r = cues.role(s.content)
    if zh:
        if s.traditional:
            return _ROLE_ZH_HANT[r].format(terms="、".join(f"「{n}」" for n in names) or "本文主題")
        return _ROLE_ZH[r].format(terms="、".join(f"「{n}」" for n in names) or "本文主题")
    if not names:
        terms = "the article's topic"
    elif len(names) == 1:
        terms = f"'{names[0]}'"
    else:
        terms = ", ".join(f"'{n}'" for n in names[:-1]) + f" and '{names[-1]}'"
    return _ROLE_EN[r].format(terms=terms)


def idea_count(units: int) -> int:
    """3-7 core ideas, fewer for short texts (never more than the units)."""
    if units <= 3:
        return units
    return min(7, max(3, (units + 1) // 2 + 1))


def core_ideas(kept: list[Scored], tags: dict[int, tuple[str, ...]]) -> tuple[CoreIdea, ...]:
    """The most salient units as core ideas; `tags`: each unit's tags by sentence order."""
    ranked = sorted(kept, key=lambda x: (-x.score, x.order))[: idea_count(len(kept))]
    ideas = []
    for item in sorted(ranked, key=lambda x: x.order):
        s = item.sentence
        ideas.append(
            CoreIdea(
                idea=s.content,
                why_it_matters=why_it_matters(item, tags.get(item.order, ())),
                evidence=(EvidenceSpan(s.paragraph_id, s.quote),),
                salience_score=round(min(1.0, max(0.0, item.score)), 3),
            )
        )
    return tuple(ideas)


def summary(kept: list[Scored], lang: str) -> str:
    """The three most salient units, in document order."""
    top = sorted(sorted(kept, key=lambda x: (-x.score, x.order))[:3], key=lambda x: x.order)
    joiner = "" if lang == "zh" else " "
    return joiner.join(x.sentence.content for x in top)
