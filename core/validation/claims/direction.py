"""Comparison direction: more/less, higher/lower, rise/fall, before/after, 高于/低于, 增加/减少.

Each direction cue has a dimension (level, speed, length, weight ...), a sign and a context
(the content words around it in its clause). A claim cue is lined up with the quote cues of its
dimension sharing the most context; opposite signs contradict. When both compare two things
("A is larger than B", "A比B大") and the claim swaps them, the sign flips: "France is smaller
than Germany" agrees with "Germany is larger than France".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from core.text.cjk import HAN
from core.validation.claims import lexicon as L
from core.validation.claims.facts import Finding
from core.validation.claims.lexicon import words
from core.validation.claims.text import Side, Token, is_content

_STOP_ZH = set(
    "的了是在和与與也就都而及或把被对對于於为為以之其这這那此个個们們等将將会會能可很更最再已又还還比但"
)
_MORE_LESS = {"more": 1, "less": -1}
_GO = frozenset(words("go goes went gone going come comes came coming"))
_BI_MASK = (
    "比较",
    "比較",
    "比例",
    "比如",
    "比赛",
    "比賽",
    "比率",
    "对比",
    "對比",
    "相比",
    "比喻",
    "比分",
    "无比",
    "無比",
    "好比",
)
_ADJ = "".join(L.ADJ_ZH)
_PREDICATE_END = rf"(?=[^{HAN}]|$|得|了|的|些|一点|一點)"
_ZH_DEGREE = re.compile(rf"(?:{'|'.join(L.DEGREE_ZH)})([{_ADJ}])|([{_ADJ}])得多")
_ZH_WORDS = re.compile("|".join(sorted(L.DIRECTION_ZH, key=len, reverse=True)))
_ZH_BI = re.compile(
    rf"比([^，。；：,;:!?！？]{{1,16}}?)(?:(更加|更|还|還)([{_ADJ}]{_PREDICATE_END})?|([{_ADJ}]){_PREDICATE_END})"
)


@dataclass(frozen=True, slots=True)
class Direction:
    dim: str
    sign: int  # +1 / -1
    text: str
    context: frozenset[str]
    subject: frozenset[str]  # what is compared ("A" of "A than B"), when there is a "than"
    object: frozenset[str]  # what it is compared with
    near: frozenset[str] = frozenset()  # the words right beside the cue (what it is about): they weigh more


def directions(side: Side) -> list[Direction]:
    return _english(side) + (_chinese(side) if side.zh else [])


def compare(quote: list[Direction], claim: list[Direction]) -> list[Finding]:
    out = []
    for c in claim:
        scored = [(len(c.context & q.context) + 2 * len(c.near & q.near), q) for q in quote if q.dim == c.dim]
        best = max((s for s, _ in scored), default=0)
        if best == 0:
            continue
        rivals = [q for s, q in scored if s == best]
        if any(_agree(c, q) for q in rivals):
            continue
        out.append(Finding("comparison", f"the quote says '{rivals[0].text}', the claim '{c.text}'"))
    return out


def _agree(c: Direction, q: Direction) -> bool:
    return (c.sign == q.sign) != _swapped(c, q)


def _swapped(c: Direction, q: Direction) -> bool:
    if not (c.object and q.object):
        return False
    return bool(
        (c.object & q.subject and not c.object & q.object)
        or (c.subject & q.object and not c.subject & q.subject)
    )


# --- English -----------------------------------------------------------------------------


def _english(side: Side) -> list[Direction]:
    toks = side.tokens
    out = []
    skip = -1
    for i, t in enumerate(toks):
        if i <= skip or t.kind != "word" or t.low not in L.DIRECTION_EN or not _is_direction(side, i):
            continue
        dim, sign = L.DIRECTION_EN[t.low]
        end = i
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        if t.low in _MORE_LESS and nxt in L.DIRECTION_EN and nxt not in _MORE_LESS:
            dim, inner = L.DIRECTION_EN[nxt]
            sign, end, skip = _MORE_LESS[t.low] * inner, i + 1, i + 1  # "more slowly"
        out.append(_en_direction(side, toks, i, end, dim, sign))
    return out


def _is_direction(side: Side, i: int) -> bool:
    toks = side.tokens
    t = toks[i]
    prev = toks[i - 1].low if i else ""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if t.low in ("up", "down"):
        return prev in _GO  # "has gone up", not "up to"
    if t.low in ("above", "below"):
        return (
            nxt is not None and nxt.kind == "word"
        )  # "below freezing", "above average"; a number is a bound
    if t.low in ("high", "low", "large", "small", "big", "long", "short", "quick", "slow", "strong", "weak"):
        return nxt is not None and nxt.kind == "word" and is_content(nxt)  # "a high risk", not "as long as"
    if t.low in ("after", "before"):
        return nxt is not None and nxt.kind == "word" and nxt.text[:1].isupper()  # "after Julius Caesar"
    if t.low == "most":  # "the most oxygen", "the world's most visited"; "most species" is a quantifier
        return prev == "the" or side.text[max(0, t.start - 3) : t.start] == "'s "
    return not (t.low in ("cut", "lost", "lose") and nxt is not None and nxt.low in ("off", "out"))


def _en_direction(side: Side, toks: tuple[Token, ...], i: int, end: int, dim: str, sign: int) -> Direction:
    clause = toks[i].clause

    def content(t: Token) -> bool:
        return t.clause == clause and is_content(t) and t.low not in L.DIRECTION_EN

    first = i
    while first > 0 and toks[first - 1].clause == clause:
        first -= 1
    last = end
    while last + 1 < len(toks) and toks[last + 1].clause == clause:
        last += 1
    before = [t.key for t in reversed(toks[first:i]) if content(t)][:2]
    after = [t.key for t in toks[end + 1 : last + 1] if content(t)][:2]
    subject: frozenset[str] = frozenset()
    obj: frozenset[str] = frozenset()
    if end + 1 < len(toks) and toks[end + 1].low in L.THAN_EN:
        subject = frozenset(t.key for t in toks[first:i] if content(t))
        obj = frozenset(t.key for t in toks[end + 2 : end + 6] if content(t))
        after = [*after, *obj]
    a, b = toks[i].start, toks[end].end
    if end + 1 <= last and is_content(toks[end + 1]):
        b = toks[end + 1].end  # "more reviews"
    elif i > first and is_content(toks[i - 1]):
        a = toks[i - 1].start  # "recall drops"
    near = frozenset(before[:1] + after[:1])
    return Direction(dim, sign, side.text[a:b], frozenset(before + after), subject, obj, near)


# --- Chinese -----------------------------------------------------------------------------


def _chinese(side: Side) -> list[Direction]:
    text = side.low
    for word in _BI_MASK:
        text = text.replace(word, "\u25a1" * len(word))
    out: list[Direction] = []
    taken: list[tuple[int, int]] = []
    for m in _ZH_BI.finditer(text):
        adj = m.group(3) or m.group(4)
        dim, sign = L.ADJ_ZH[adj] if adj else ("level", 1)
        obj = frozenset(_pairs(m.group(1)))
        subject = frozenset(_pairs(_clause_before(side, text, m.start())))
        out.append(_zh_direction(side, text, m.start(), m.end(), dim, sign, subject, obj))
        taken.append(m.span())
    for pattern in (_ZH_WORDS, _ZH_DEGREE):
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            word = m.group(0)
            dim, sign = L.DIRECTION_ZH.get(word) or L.ADJ_ZH[m.group(1) or m.group(2)]
            out.append(_zh_direction(side, text, m.start(), m.end(), dim, sign, frozenset(), frozenset()))
            taken.append(m.span())
    return out


def _clause_before(side: Side, text: str, pos: int) -> str:
    clause = side.clause_at(pos)
    start = pos
    while start > 0 and side.clause_at(start - 1) == clause and pos - start < 8:
        start -= 1
    return text[start:pos]


def _pairs(text: str) -> list[str]:
    return [a + b for a, b in pairwise(text) if a not in _STOP_ZH and b not in _STOP_ZH]


def _zh_direction(
    side: Side,
    text: str,
    start: int,
    end: int,
    dim: str,
    sign: int,
    subject: frozenset[str],
    obj: frozenset[str],
) -> Direction:
    clause = side.clause_at(start)
    a = start
    while a > 0 and start - a < 6 and side.clause_at(a - 1) == clause:
        a -= 1
    b = end
    while b < len(text) and b - end < 4 and side.clause_at(b) == clause and text[b] not in "，。；：,;:":
        b += 1
    context = frozenset(_pairs(text[a:start]) + _pairs(text[end:b])) | subject | obj
    shown = side.text[start:end] + side.text[end : min(b, end + 3)].rstrip("的了")  # 增加1.3%, 更大的
    before = _pairs(text[max(a, start - 4) : start].rstrip("却卻也都就還还"))
    near = frozenset(before[-1:] + _pairs(text[end : min(b, end + 3)])[:1])
    return Direction(dim, sign, shown, context, subject, obj, near)
