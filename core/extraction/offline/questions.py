"""Recall questions for a unit: a Q&A form and a cloze form, in the unit's language.

Rules every question keeps: the expected answer is a substring of the unit's quote; a cloze
hides one key term (never a stop word, never the whole sentence) as "____"; no question
contains its own answer.
"""

from __future__ import annotations

import re

from core.domain import RecallQuestion
from core.extraction.offline import cues
from core.extraction.offline.segment import EN_STOP, ZH_STOP, Sentence
from core.text import CJK_RE, normalize_for_match

BLANK = "____"
_BECAUSE_EN = re.compile(r"^(?P<effect>[^,;]{12,}?),?\s+because\s+(?P<cause>.{8,}?)[.!?]?$", re.I)
_BECAUSE_ZH = re.compile(
    r"^(?:因为|因為|由于|由於)(?P<cause>[^，,。]{2,})[，,]\s*(?:所以|因此|才)?(?P<effect>[^。]{2,}?)[。！？；]?$"
)
_EFFECT_ZH = re.compile(
    r"^(?P<effect>[^，,。]{3,})[，,]\s*(?:是)?(?:因为|因為)(?P<cause>[^。]{2,}?)[。！？；]?$"
)


def _zh_forms(traditional: bool) -> dict[str, str]:
    if traditional:
        return {
            "what": "什麼是{}？",
            "why": "為什麼{}？",
            "about": "關於「{}」，文中是怎麼說的？",
            "cause": "文中如何解釋「{}」的成因或作用？",
            "example": "文中用什麼例子說明「{}」？",
            "cloze": "填空：{}",
        }
    return {
        "what": "什么是{}？",
        "why": "为什么{}？",
        "about": "关于「{}」，文中是怎么说的？",
        "cause": "文中如何解释「{}」的成因或作用？",
        "example": "文中用什么例子说明「{}」？",
        "cloze": "填空：{}",
    }


def _leaks(question: str, answer: str) -> bool:
    a = normalize_for_match(answer)
    return not a or a in normalize_for_match(question)


def qa_question(sentence: Sentence, kind: str, key: str) -> tuple[str, str] | None:
    """A (question, answer) pair; the answer is an exact substring of the sentence."""
    text = sentence.text
    zh = sentence.lang == "zh" or bool(CJK_RE.search(text))
    pair: tuple[str, str] | None = None
    d = cues.definition(text) if kind == "concept" else None
    if zh:
        forms = _zh_forms(sentence.traditional)
        m = _BECAUSE_ZH.match(text) or _EFFECT_ZH.match(text)
        if d is not None:
            pair = (forms["what"].format(d.term), d.rest)
        elif m:
            pair = (forms["why"].format(m.group("effect").strip("，, ")), m.group("cause").strip())
        elif kind == "example":
            pair = (forms["example"].format(key), text)
        elif kind == "mechanism":
            pair = (forms["cause"].format(key), text)
        else:
            pair = (forms["about"].format(key), text)
    else:
        m = _BECAUSE_EN.match(text)
        if d is not None:
            verb = "are" if re.search(r"\bare\b", text[: len(d.term) + 6]) else "is"
            pair = (f"What {verb} {d.term}?", d.rest)
        elif m:
            effect = m.group("effect").strip()
            effect = (
                effect[0].lower() + effect[1:] if effect[:2].isalpha() and effect[1].islower() else effect
            )
            pair = (f"According to the text, why is it that {effect}?", m.group("cause").strip())
        elif kind == "example":
            pair = (f'What example does the text give about "{key}"?', text)
        elif kind == "mechanism":
            pair = (f'How does the text explain the role of "{key}"?', text)
        else:
            pair = (f'What does the text say about "{key}"?', text)
    if pair is None or not pair[1].strip() or pair[1] not in text or _leaks(*pair):
        return None
    return pair


def cloze_question(sentence: Sentence, ranked_terms: list[str]) -> tuple[str, str] | None:
    """Hide the best-ranked key term that occurs in the sentence."""
    text = sentence.text
    zh = bool(CJK_RE.search(text))
    for term in ranked_terms:
        surface = sentence.surfaces.get(term, "")
        if not _good_blank(surface, text):
            continue
        pattern = re.compile(re.escape(surface), re.I)
        masked = pattern.sub(BLANK, text)
        if masked == text or not masked.replace(BLANK, "").strip(" ，,。.;；:："):
            continue
        question = (_zh_forms(sentence.traditional)["cloze"] if zh else "Fill in the blank: {}").format(
            masked
        )
        if _leaks(question, surface):
            continue
        return question, surface
    return None


def _good_blank(surface: str, text: str) -> bool:
    if not surface or surface not in text:
        return False
    low = surface.lower()
    if low in EN_STOP or surface in ZH_STOP:
        return False
    if len(surface) >= 0.6 * len(text):
        return False
    return len(surface) >= 2


def questions_for(
    unit_index: int, sentence: Sentence, kind: str, ranked_terms: list[str]
) -> list[RecallQuestion]:
    out: list[RecallQuestion] = []
    key = sentence.surfaces.get(ranked_terms[0], "") if ranked_terms else ""
    if key:
        qa = qa_question(sentence, kind, key)
        if qa:
            out.append(RecallQuestion(qa[0], qa[1], unit_index, "qa"))
    cloze = cloze_question(sentence, ranked_terms)
    if cloze:
        out.append(RecallQuestion(cloze[0], cloze[1], unit_index, "cloze"))
    if not out:
        zh = bool(CJK_RE.search(sentence.text))
        if zh:
            q = (
                "這句話在文中說了什麼？請複述要點。"
                if sentence.traditional
                else "这句话在文中说了什么？请复述要点。"
            )
        else:
            q = "What is the point of this passage? Recall it."
        out.append(RecallQuestion(q, sentence.text, unit_index, "qa"))
    return out
