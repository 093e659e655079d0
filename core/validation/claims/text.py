"""One side of a claim-quote pair, prepared once: cleaned text, tokens, clauses.

Preparation removes what the card writer removes without changing meaning: inline markup
(**bold**, `code`), list bullets, citation marks ([3], [citation needed]) and a leading news
dateline ("(CNN) --", "LONDON (Reuters) --"); digits grouped by spaces ("209 000") are joined.
Tokens keep their character span in the prepared text, so every reason can quote the words it
is about. English words carry their Snowball stem; CJK characters are tokens of their own.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from core.text import cjk_ratio, unify
from core.text.analysis import STOP, stem
from core.text.cjk import HAN, KANA
from core.validation.claims.lexicon import words

CJK_CLASS = HAN + KANA
_CJK_CLASS = CJK_CLASS
CJK_CHAR = re.compile(f"[{CJK_CLASS}]")
_TOKEN = re.compile(
    rf"(?P<num>\d+(?:,\d{{3}})*(?:\.\d+)?)"
    r"|(?P<deg>°\s?[CF]\b)"
    rf"|(?P<cjk>[{_CJK_CLASS}])"
    rf"|(?P<word>[^\W\d_{_CJK_CLASS}]+(?:\d+[^\W_{_CJK_CLASS}]*)?)"
    r"|(?P<punct>\S)"
)
_MARKUP = re.compile(r"(?<!\w)(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_CITATION = re.compile(r"\[(?:\d{1,3}|citation needed|note \d+|[a-z])\]", re.IGNORECASE)
_DATELINE = re.compile(
    r"^\s*(?:[A-Z][A-Z .,'-]{1,40}?\s*)?\((?:CNN|Reuters|AP|AFP|BBC|UPI|Bloomberg)\)\s*(?:--|—|–|-|:)?\s*"
)
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d])")
_SPACES = re.compile(r"\s+")

CLAUSE_PUNCT = frozenset(',;:.!?()[]{}—–。，；：！？、（）【】「」『』…"')
CONJ_EN = frozenset(
    words(
        "but although though while whereas because since so yet and or which who whom whose that when where if "
        "unless until"
    )
)
# (却 and 而 stand after a subject inside a clause: 降雨量却比往年少)
CONJ_ZH = words("但是 但 而且 然而 因为 因為 所以 因此 如果 虽然 雖然 并且 並且 可是 同时 同時 不过 不過")
# words skipped when looking for the word a cue is about (plus English -ly adverbs)
SKIP_EN = STOP | frozenset(
    words(
        "one ones there their also even still yet really quite rather very too then thus both either "
        "being been own same such"
    )
)
_CONTRACTION_STEM = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
# past forms the stemmer cannot join to their verb ("won" / "win"): base form of each
_IRREGULAR = {
    past: base
    for base, forms in {
        "win": "won",
        "go": "went gone",
        "take": "took taken",
        "make": "made",
        "find": "found",
        "give": "gave given",
        "come": "came",
        "rise": "rose risen",
        "fall": "fell fallen",
        "grow": "grew grown",
        "lose": "lost",
        "leave": "left",
        "begin": "began begun",
        "write": "wrote written",
        "run": "ran",
        "see": "saw seen",
        "know": "knew known",
        "say": "said",
        "get": "got gotten",
        "hold": "held",
        "keep": "kept",
        "lead": "led",
        "meet": "met",
        "pay": "paid",
        "sell": "sold",
        "tell": "told",
        "think": "thought",
        "bring": "brought",
        "buy": "bought",
        "build": "built",
        "send": "sent",
        "spend": "spent",
        "stand": "stood",
        "understand": "understood",
        "strike": "struck",
        "catch": "caught",
        "teach": "taught",
        "fight": "fought",
        "drive": "drove driven",
        "fly": "flew flown",
        "eat": "ate eaten",
        "drink": "drank drunk",
        "break": "broke broken",
        "choose": "chose chosen",
        "speak": "spoke spoken",
        "freeze": "froze frozen",
        "throw": "threw thrown",
        "wear": "wore worn",
        "feel": "felt",
        "mean": "meant",
        "sleep": "slept",
        "sink": "sank sunk",
        "shake": "shook shaken",
        "forget": "forgot forgotten",
        "hide": "hid hidden",
        "light": "lit",
        "shut": "shut",
        "split": "split",
    }.items()
    for past in forms.split()
}


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # as written (prepared text)
    low: str  # lower case
    key: str  # English: Snowball stem; otherwise the lower-case text
    start: int
    end: int
    kind: str  # "word" | "num" | "cjk" | "punct"
    clause: int


def prepare(raw: str) -> str:
    """The text analysed: NFKC, straight quotes, markup and page furniture out, spaces collapsed."""
    text = unify(raw)
    text = _BULLET.sub("", text)
    if "(" in text:
        text = _DATELINE.sub("", text)
    if "[" in text:
        text = _CITATION.sub("", text)
    if "*" in text or "_" in text or "`" in text:
        text = _MARKUP.sub(r"\2", text)
    if " " in text or "\u00a0" in text:
        text = _GROUPED.sub(lambda m: re.sub(r"\s", ",", m.group(0)), text)
    return _SPACES.sub(" ", text).strip()


class Side:
    """A prepared text with its tokens, clauses and language."""

    def __init__(self, raw: str, *, prepared: bool = False) -> None:
        self.text = raw if prepared else prepare(raw)
        low = self.text.lower()
        self.low = low if len(low) == len(self.text) else "".join(c.lower()[:1] or c for c in self.text)
        self.zh = cjk_ratio(self.text) >= 0.3 or bool(CJK_CHAR.search(self.text[:1]))
        self.tokens: tuple[Token, ...] = tuple(_tokenize(self.text, self.low))
        self._starts = [t.start for t in self.tokens]

    @property
    def clauses(self) -> int:
        return self.tokens[-1].clause + 1 if self.tokens else 0

    def clause_at(self, pos: int) -> int:
        """The clause of the token at or before a character offset."""
        i = bisect_right(self._starts, pos) - 1
        return self.tokens[i].clause if i >= 0 else 0

    def token_at(self, pos: int) -> int:
        """Index of the token holding a character offset (or the one before it)."""
        return max(0, bisect_right(self._starts, pos) - 1)

    @cached_property
    def clause_spans(self) -> list[tuple[int, int]]:
        """Character span of each clause (from its first token's start to its last token's end)."""
        spans: list[tuple[int, int]] = []
        for t in self.tokens:
            if t.clause == len(spans):
                spans.append((t.start, t.end))
            else:
                spans[-1] = (spans[-1][0], t.end)
        return spans

    @cached_property
    def words(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t.kind in ("word", "num"))

    @cached_property
    def stems(self) -> frozenset[str]:
        return frozenset(t.key for t in self.tokens if t.kind == "word")

    @cached_property
    def bigrams(self) -> frozenset[str]:
        return frozenset(cjk_bigrams(self.tokens))

    def occurrences(self, key: str) -> list[int]:
        """Character offsets where a content key occurs: an English stem or a CJK string."""
        if CJK_CHAR.match(key):
            out, i = [], self.low.find(key)
            while i >= 0:
                out.append(i)
                i = self.low.find(key, i + 1)
            return out
        return self._by_key.get(key, [])

    @cached_property
    def _by_key(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        for t in self.tokens:
            if t.kind == "word":
                index.setdefault(t.key, []).append(t.start)
        return index


def cjk_bigrams(tokens: tuple[Token, ...]) -> list[str]:
    """Adjacent CJK character pairs (never across punctuation or other tokens)."""
    out = []
    for a, b in pairwise(tokens):
        if a.kind == "cjk" and b.kind == "cjk" and a.end == b.start:
            out.append(a.text + b.text)
    return out


def is_content(tok: Token) -> bool:
    """A word a cue can be about: not a stop word, not an -ly adverb, not punctuation."""
    if tok.kind == "word":
        return tok.low not in SKIP_EN and not (tok.low.endswith("ly") and len(tok.low) > 4)
    return tok.kind == "num"


def _tokenize(text: str, low: str) -> list[Token]:
    raw: list[tuple[str, str, int, int]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        a, b = m.span()
        if kind == "deg":  # "°C" is a unit word
            raw.append(("word", low[a:b].replace(" ", ""), a, b))
            continue
        if kind == "word" and low[a:b] == "cannot":
            raw += [("word", "can", a, a + 3), ("word", "not", a + 3, b)]
            continue
        if kind == "word" and raw and raw[-1][0] == "punct" and text[raw[-1][2]] == "'" and len(raw) > 1:
            prev = raw[-2]
            word = low[a:b]
            if word == "t" and prev[0] == "word" and low[prev[2] : prev[3]].endswith("n"):
                stem_ = low[prev[2] : prev[3] - 1]
                raw[-2] = ("word", _CONTRACTION_STEM.get(stem_, stem_), prev[2], prev[3] - 1)
                raw[-1] = ("word", "n't", prev[3] - 1, b)
                continue
            if word in ("s", "re", "ve", "ll", "d", "m"):
                raw.pop()
                continue
        if kind == "punct" and text[a] == "'":
            raw.append((kind, "'", a, b))
            continue
        raw.append((kind, low[a:b], a, b))
    return _with_clauses(text, [r for r in raw if r[1] != "'"])


def _with_clauses(text: str, raw: list[tuple[str, str, int, int]]) -> list[Token]:
    """Tokens numbered by clause: punctuation closes one, a conjunction opens one (no empty ones)."""
    out: list[Token] = []
    clause = 0
    closed = False  # the current clause ended at a punctuation mark
    conj_at = _zh_conjunctions(text)
    for i, (kind, low, a, b) in enumerate(raw):
        stop = kind == "punct" and (low in CLAUSE_PUNCT or (low == "-" and _next_is(raw, i, "-")))
        opens = (kind == "word" and low in CONJ_EN) or a in conj_at
        if out and (closed or opens) and not stop:
            clause += 1
            closed = False
        key = stem(_IRREGULAR.get(low, low)) if kind == "word" and low.isalpha() else low
        out.append(Token(text[a:b], low, key, a, b, kind, clause))
        closed = closed or stop
    return out


def _next_is(raw: list[tuple[str, str, int, int]], i: int, value: str) -> bool:
    return i + 1 < len(raw) and raw[i + 1][1] == value


def _zh_conjunctions(text: str) -> set[int]:
    if not CJK_CHAR.search(text):
        return set()
    found: set[int] = set()
    for word in CONJ_ZH:
        i = text.find(word)
        while i >= 0:
            found.add(i)
            i = text.find(word, i + len(word))
    return found


_jieba_tag: Callable[[str], Any] | None = None
_jieba_tried = False


def zh_tagger() -> Callable[[str], Any] | None:
    """rjieba's part-of-speech tagger, imported on first use (as core/extraction/offline/segment.py)."""
    global _jieba_tag, _jieba_tried
    if not _jieba_tried:
        _jieba_tried = True
        try:
            import rjieba

            _jieba_tag = rjieba.tag
        except Exception:  # pragma: no cover - without the wheel the entity rule uses its other signals
            _jieba_tag = None
    return _jieba_tag
