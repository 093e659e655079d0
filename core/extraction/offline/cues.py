"""Linguistic cues: what kind of memory a sentence is, and the role it plays in the text.

Types: example (for example / such as / 例如 / 比如), concept (definitions: is a / refers to /
是一种 / 指), mechanism (cause and process: because / leads to / 因为 / 导致 / 通过), claim (the
rest, including contrasts: however / but / 但是 / 然而). The example, cause and process cues are
the validator's (core/validation/lexicon.py), so a type never breaks its rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.validation.lexicon import CAUSE_CUE, EXAMPLE_CUE, PROCESS_CUE

_EXAMPLE = EXAMPLE_CUE
_DEFINITION_EN = re.compile(
    r"^(?P<term>(?:[A-Z]?[\w'\-]+\s){0,5}?[\w'\-]+?)\s+"
    r"(?P<verb>is (?:a|an|the)|are (?:a|an|the)?|refers? to|is defined as|are defined as|means|is called|"
    r"is known as|describes)\s+(?P<rest>.+)$",
    re.I,
)
_DEFINITION_ZH = re.compile(
    r"^(?P<term>[^，,。；：:\s]{1,16}?)\s?(?P<verb>是一种|是一個|是一个|是一種|是指|指的是|是|指|"
    r"又称|又稱|被称为|被稱為|称为|稱為|叫做|即)(?P<rest>[^。；]{4,})"
)
_CALLED = re.compile(
    r"\b(?:is|are) (?:called|known as|termed)\b|被称为|被稱為|称为|稱為|叫做|定义为|定義為", re.I
)
_CAUSAL = CAUSE_CUE
_CONTRAST = re.compile(
    r"\b(?:however|but|although|though|whereas|yet|instead|in contrast|on the other hand|despite)\b"
    r"|但是|然而|不过|不過|虽然|雖然|却|卻|相反|反而",
    re.I,
)
_RESULT = re.compile(
    r"\b(?:found|shows?|showed|demonstrat\w+|reveal\w*|concluded?|increase\w*|decrease\w*|rose|fell)\b"
    r"|发现|發現|表明|显示|顯示|证明|證明|结果|結果|增加|减少|減少",
    re.I,
)


# A clause opening with these is not a term being defined ("但是…", "因为…", "这是…").
_ZH_NOT_SUBJECT = re.compile(r"[这這那它他她其此但因所如而在由虽雖然并並且或就也都我你]")


# "X正是Y", "X也是Y": an adverb before 是 means X is not a bare term.
_ZH_ADVERB_END = frozenset("正就也都還还才只即便乃則则不又亦皆均總总仍")


@dataclass(frozen=True, slots=True)
class Definition:
    term: str
    rest: str  # the defining part, an exact substring of the sentence


def memory_type(text: str) -> str:
    """example only with an example cue, mechanism only with a cause or a process (the same
    cues the validator's type_without_cue rule reads), concept for a definition."""
    head = text[:40]
    if _EXAMPLE.search(head) or (_EXAMPLE.search(text) and not definition(text)):
        return "example"
    if definition(text) or _CALLED.search(text):
        return "concept"
    if _CAUSAL.search(text) or PROCESS_CUE.search(text):
        return "mechanism"
    return "claim"


def role(text: str) -> str:
    """definition | example | cause | contrast | result | statement."""
    kind = memory_type(text)
    if kind == "concept":
        return "definition"
    if kind == "example":
        return "example"
    if kind == "mechanism":
        return "cause"
    if _CONTRAST.search(text):
        return "contrast"
    if _RESULT.search(text):
        return "result"
    return "statement"


def cue_strength(text: str) -> float:
    """How clearly the cues mark the type (0 = no cue, 1 = an explicit marker)."""
    if definition(text) or _EXAMPLE.search(text) or _CALLED.search(text):
        return 1.0
    if _CAUSAL.search(text) or _CONTRAST.search(text):
        return 0.7
    return 0.3


def definition(text: str) -> Definition | None:
    """'X is a Y' / 'X refers to Y' / 'X是Y' / 'X指Y' near the start of a sentence."""
    m = _DEFINITION_ZH.match(text)
    term = m.group("term") if m else ""
    if m and len(term) >= 2 and not _ZH_NOT_SUBJECT.match(term) and term[-1] not in _ZH_ADVERB_END:
        return Definition(m.group("term"), m.group("rest").rstrip("。.！!？?；;"))
    m = _DEFINITION_EN.match(text)
    if m:
        term = m.group("term")
        first = term.split()[0].lower()
        if first in {"it", "this", "that", "there", "he", "she", "they", "which", "what", "these", "those"}:
            return None
        rest = m.group("rest").rstrip(".!?;")
        if len(rest) >= 8:
            return Definition(term, rest)
    return None
