"""Cue words found in one side, each tied to the word it is about (its head).

English cues are read from tokens; Chinese cues from the text with non-cue words blanked
(lexicon.MASK_ZH). A cue's head is the first content word after it in its clause (English: a
stem; Chinese: the next two characters, or one at a clause end), which is how the other side
is searched for the same statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from core.validation.claims import lexicon as L
from core.validation.claims.lexicon import words
from core.validation.claims.text import CJK_CHAR, Side, is_content

_SKIP_ZH = set(
    "的了是在于於会會能很太都也就再又还還被受把对對让讓使给給向从從到得地着著过过所该該这這那此其个個种種些一有为為要将將曾已经經"
    "次位张張条條件项項家名只本份类類"  # classifiers: 每一次成功的复习 is about 成功
)
_SKIP_ZH_WORDS = (
    "直接",
    "真正",
    "已经",
    "已經",
    "一直",
    "逐渐",
    "逐漸",
    "任何",
    "可以",
    "能够",
    "能夠",
    "真的",
    "完全",
)
_DEMONSTRATIVE = re.compile(r"[这這该該那此][项項个個种種些位次张張条條家]")
_NEG_NUMBER = re.compile(
    r"(?:不足|不到|不满|不滿|不超过|不超過|未满|未滿)(?=\s*[\d零〇一二两兩三四五六七八九十百千万萬])"
)


def _alternation(words: list[str] | tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


_NEG_ZH_RE = _alternation(L.NEG_ZH)
_QUANT_ZH_RE = _alternation(list(L.QUANT_ZH))
_MODAL_ZH_RE = _alternation(list(L.MODAL_ZH))


@dataclass(frozen=True, slots=True)
class Cue:
    label: str  # "neg", a quantifier class or a modal class
    start: int  # span of the cue words
    end: int
    head: str  # key of the word it is about ("" when none)
    head_end: int
    clause: int
    verb: str = ""  # an English frequency adverb's verb may stand before it ("spreads mainly")


class Cues:
    """Negation, quantifier and modal cues of one side (computed once per side)."""

    def __init__(self, side: Side) -> None:
        self.side = side
        masked = side.low
        if side.zh or CJK_CHAR.search(side.text):
            for word in L.MASK_ZH:
                if word in masked:
                    masked = masked.replace(word, "\u25a1" * len(word))
        self.masked = masked

    @cached_property
    def negations(self) -> list[Cue]:
        out = self._en_negations()
        neg_text = _NEG_NUMBER.sub(lambda m: "\u25a1" * len(m.group(0)), self.masked.replace("不得不", "□□□"))
        out += [
            self._zh_cue("neg", m.start(), m.end()) for m in _NEG_ZH_RE.finditer(neg_text) if _cjk_at(self, m)
        ]
        return out

    @cached_property
    def negated_clauses(self) -> frozenset[int]:
        return frozenset(c.clause for c in self.negations)

    @cached_property
    def quantifiers(self) -> list[Cue]:
        out = self._en_table(L.QUANT_EN, _quantifier_ok)
        out += [
            self._zh_cue(L.QUANT_ZH[m.group(0)], m.start(), m.end())
            for m in _QUANT_ZH_RE.finditer(self.masked)
            if _cjk_at(self, m)
        ]
        return out

    @cached_property
    def modals(self) -> list[Cue]:
        out = self._en_table(L.MODAL_EN, _modal_ok) + self._en_verb_to()
        out += [
            self._zh_cue(L.MODAL_ZH[m.group(0)], m.start(), m.end())
            for m in _MODAL_ZH_RE.finditer(self.masked)
            if _cjk_at(self, m) and self.masked[m.end() : m.end() + 1] != "的"  # 需要的复习: "needed"
        ]
        return out

    # --- English ---------------------------------------------------------------------

    def _en_negations(self) -> list[Cue]:
        toks = self.side.tokens
        out = []
        for i, t in enumerate(toks):
            nxt = toks[i + 1].low if i + 1 < len(toks) else ""
            if t.low in L.NEG_EN:
                if (t.low, nxt) in L.NEG_EN_EXCEPT or (t.low in ("not", "n't") and _quantified(nxt)):
                    continue
                out.append(self._en_cue("neg", i, i + 1))
            elif t.low in L.NEG_EN_VERB_TO and nxt == "to":
                out.append(self._en_cue("neg", i, i + 2))
        return out

    def _en_table(self, table: dict[tuple[str, ...], str], ok: Callable[[Side, int, int], bool]) -> list[Cue]:
        toks = self.side.tokens
        lows = [t.low for t in toks]
        starts = _FIRST_WORDS[id(table)]
        out: list[Cue] = []
        i = 0
        while i < len(toks):
            if lows[i] in starts:
                for n in (3, 2, 1):
                    key = tuple(lows[i : i + n])
                    if len(key) == n and key in table and ok(self.side, i, n):
                        out.append(self._en_cue(table[key], i, i + n))
                        i += n - 1
                        break
            i += 1
        return out

    def _en_verb_to(self) -> list[Cue]:
        """ "The law requires employers to give": the class is about "give"."""
        toks = self.side.tokens
        out = []
        for i, t in enumerate(toks):
            if t.low not in L.MODAL_EN_VERB_TO:
                continue
            for j in range(i + 1, min(i + 6, len(toks))):
                if toks[j].clause != t.clause:
                    break
                if toks[j].low == "to":
                    cue = self._en_cue(L.MODAL_EN_VERB_TO[t.low], j, j + 1)
                    out.append(Cue(cue.label, t.start, cue.end, cue.head, cue.head_end, cue.clause))
                    break
        return out

    def _en_cue(self, label: str, i: int, j: int) -> Cue:
        toks = self.side.tokens
        clause = toks[i].clause
        head, head_end = "", toks[j - 1].end
        scope = clause
        for t in toks[j:]:
            if t.clause != scope:
                if label == "neg" or t.low not in _RELATIVE:
                    break
                scope = t.clause  # "most of whom live": a quantifier's head may follow a relative pronoun
            if is_content(t) and t.low not in L.NEG_EN:
                head, head_end = t.key, t.end
                break
        start = toks[i - 1].start if i and toks[i - 1].low in _AUX and label == "neg" else toks[i].start
        verb = ""
        if toks[i].low in L.FREQUENCY_EN and i and toks[i - 1].clause == clause and is_content(toks[i - 1]):
            verb = toks[i - 1].key
        return Cue(label, start, toks[j - 1].end, head, head_end, clause, verb)

    # --- Chinese ---------------------------------------------------------------------

    def _zh_cue(self, label: str, start: int, end: int) -> Cue:
        head, head_end = zh_head(self.masked, end)
        return Cue(label, start, end, head, head_end, self.side.clause_at(start))


_FIRST_WORDS = {id(table): frozenset(key[0] for key in table) for table in (L.QUANT_EN, L.MODAL_EN)}
_RELATIVE = frozenset(words("whom which who whose that"))
_AUX = frozenset(
    words("do does did is are was were am be been has have had will would can could should must may might")
)


def _quantified(word: str) -> bool:
    """ "not many", "not all", "not always": a quantifier, read by the quantifier rule."""
    return word in ("all", "every", "many", "much", "always", "necessarily", "only", "just")


def _quantifier_ok(side: Side, i: int, n: int) -> bool:
    toks = side.tokens
    word = toks[i].low
    prev = toks[i - 1].low if i else ""
    nxt = toks[i + n].low if i + n < len(toks) else ""
    if (
        word == "most"
        and n == 1
        and (prev == "the" or side.text[max(0, toks[i].start - 3) : toks[i].start] == "'s ")
    ):
        return False  # "the most oxygen", "the world's most visited": a superlative
    if word == "some" and nxt[:1].isdigit():
        return False  # "some 30 people": about 30
    if word in ("each", "all") and nxt in ("other", "in"):
        return False
    if word == "many" and prev in ("how", "as"):
        return False
    return not (word == "certain" and (prev in _AUX or not nxt))


def _modal_ok(side: Side, i: int, n: int) -> bool:
    tok = side.tokens[i]
    if tok.text == "May" and i and side.tokens[i - 1].kind != "punct":
        return False  # the month
    return not (tok.low == "will" and i and side.tokens[i - 1].low in ("the", "free", "good", "political"))


def _cjk_at(cues: Cues, m: re.Match[str]) -> bool:
    return bool(CJK_CHAR.match(m.group(0)))


def zh_head(text: str, end: int) -> tuple[str, int]:
    """The two characters a Chinese cue is about (skipping 的, 会, 直接, 这项 ...), or one at a clause end."""
    i = end
    while i < len(text):
        word = next((w for w in _SKIP_ZH_WORDS if text.startswith(w, i)), "")
        if word:
            i += len(word)
        elif _DEMONSTRATIVE.match(text, i):
            i += 2
        elif text[i] in _SKIP_ZH or text[i] == "\u25a1":
            i += 1
        else:
            break
    if i >= len(text) or not CJK_CHAR.match(text[i]):
        return "", end
    if i + 1 < len(text) and CJK_CHAR.match(text[i + 1]):
        return text[i : i + 2], i + 2
    return text[i], i + 1
