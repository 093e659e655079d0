"""Named entities: did the claim put a different person, place or organisation where the
quote names one?

The two texts are aligned (English by words, Chinese by characters). A stretch of the quote
replaced by a stretch of the claim is an entity swap when both hold a name and the claim's
name is nowhere in the quote: "Hermann Ebbinghaus" -> "William James", 北京 -> 东京. A name
the claim adds without one to replace is unsupported, unless it stands where the quote has a
pronoun ("It produces" -> "Photosynthesis produces": the card writer resolving a reference).

English names: capitalised words not opening a sentence, acronyms and mixed case (NADPH,
RuBisCO), or a capitalised run; an acronym matches its expansion (WHO = World Health
Organization), a demonym its country (Japanese = Japan). Chinese names: rjieba's name, place
and organisation tags, a place or organisation suffix (省, 河, 部, 大学 ...), transliteration
characters (弗洛伊德) or a surname with a given name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from core.validation.claims import lexicon as L
from core.validation.claims.dates import MONTHS, WEEKDAYS
from core.validation.claims.facts import Finding
from core.validation.claims.lexicon import words
from core.validation.claims.text import CJK_CHAR, SKIP_EN, Side, Token, zh_tagger
from core.validation.claims.units import UNITS

ANAPHORS_EN = frozenset(words("it its they them their he she his her him this that these those which such"))
ANAPHORS_ZH = (
    "它们",
    "它們",
    "他们",
    "他們",
    "她们",
    "她們",
    "它",
    "他",
    "她",
    "这",
    "這",
    "该",
    "該",
    "此",
    "其",
)
_SENTENCE_END = re.compile(r"[.!?:;\"(]\s*$")
_TITLES = frozenset(words("dr mr mrs ms prof sir st mt"))
_NAME_JOINERS = frozenset({"of", "the", "de", "von", "van", "and", "for"})
_DEMONYMS = {
    "french": "france",
    "dutch": "netherlands",
    "swiss": "switzerland",
    "greek": "greece",
    "welsh": "wales",
}
_DEMONYM_ENDINGS = ("ish", "ese", "ian", "an", "i", "ic")
_ZH_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz", "eng"})
_ZH_SUFFIX = tuple(
    words(
        "省 市 县 縣 州 洲 国 國 河 江 湖 海 山 岛 島 湾 灣 部 局 署 院 队 隊 京 大学 大學 公司 集团 集團 组织 組織 基金会 "
        "基金會 循环 循環 王朝 朝 宫 宮 寺 城 港 峰 村 镇 鎮"
    )
)
_TRANSLIT = set(
    "斯尔爾夫克特德拉巴伊亚亞利诺諾波顿頓洛弗莫卡吉琳娜蒂迪兹茲格维維罗羅马馬奥奧浩宾賓艾森贝貝尼里"
)
_SURNAMES = set(
    "王李张張刘劉陈陳杨楊赵趙周吴吳孙孫郭罗羅梁郑鄭谢謝韩韓冯馮邓鄧蒋蔣蔡曹袁曾彭吕呂苏蘇卢盧魏薛潘杜钟鍾汪姜谭譚廖邹鄒熊邱秦顾顧侯邵孟贺賀赖賴龚龔胡徐朱何鲁魯"
)
_CUE_ZH = frozenset([*L.NEG_ZH, *L.QUANT_ZH, *L.MODAL_ZH, *L.DIRECTION_ZH, *L.ADJ_ZH])


@dataclass(frozen=True, slots=True)
class Names:
    findings: list[Finding]
    referents: frozenset[int]  # claim token indices standing in for a quote pronoun


def compare(quote: Side, claim: Side) -> Names:
    if quote.zh or claim.zh:
        return _chinese(quote, claim)
    return _english(quote, claim)


MAX_ALIGN = 2000  # words or characters aligned between the shared start and end


def align(a: Sequence[str], b: Sequence[str]) -> tuple[list[tuple[str, int, int, int, int]], float]:
    """SequenceMatcher's opcodes and ratio, with the shared start and end set aside first: one
    changed name in a long text aligns in microseconds. A middle longer than MAX_ALIGN on either
    side counts as one replaced stretch (the alignment is quadratic)."""
    n, size = 0, min(len(a), len(b))
    while n < size and a[n] == b[n]:
        n += 1
    m = 0
    while m < size - n and a[-1 - m] == b[-1 - m]:
        m += 1
    mid_a, mid_b = a[n : len(a) - m], b[n : len(b) - m]
    inner: Sequence[tuple[str, int, int, int, int]]
    if len(mid_a) > MAX_ALIGN or len(mid_b) > MAX_ALIGN:
        inner = [("replace", 0, len(mid_a), 0, len(mid_b))]
    else:
        inner = SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_opcodes()
    ops = [("equal", 0, n, 0, n)] if n else []
    ops += [(op, i1 + n, i2 + n, j1 + n, j2 + n) for op, i1, i2, j1, j2 in inner if i2 > i1 or j2 > j1]
    if m:
        ops.append(("equal", len(a) - m, len(a), len(b) - m, len(b)))
    same = sum(i2 - i1 for op, i1, i2, _, _ in ops if op == "equal")
    return ops, (2 * same / (len(a) + len(b)) if a or b else 1.0)


# --- English -----------------------------------------------------------------------------


def _english(quote: Side, claim: Side) -> Names:
    qw, cw = quote.words, claim.words
    q_names, c_names = _names(quote, qw), _names(claim, cw)
    opcodes, _ = align([t.low for t in qw], [t.low for t in cw])
    findings: list[Finding] = []
    referents: set[int] = set()
    known = _Known(qw, cw)
    new = {j for j in c_names if not known(cw[j])}
    # a swapped name leaves words around it in place; a fragment (an answer) has no slot to fill
    in_place = any(op == "equal" and i2 - i1 >= 2 for op, i1, i2, _, _ in opcodes)
    for op, i1, i2, j1, j2 in opcodes:
        if op != "replace":
            continue
        if any(qw[i].low in ANAPHORS_EN for i in range(i1, i2)):
            referents.update(range(j1, j2))
            continue
        theirs = [i for i in range(i1, i2) if i in q_names]
        ours = [j for j in range(j1, j2) if j in new or (theirs and _capitalised(cw[j]) and not known(cw[j]))]
        if ours and theirs and in_place and i2 - i1 <= 5 and j2 - j1 <= 5:
            findings.append(
                Finding("entity", f"the quote names {_run(qw, theirs)}, the claim {_run(cw, ours)}")
            )
            referents.update(range(j1, j2))
    for j in sorted(new - referents):
        if not any(t.low in ANAPHORS_EN for t in qw[:3]):
            findings.append(Finding("unsupported", f"the quote does not name {cw[j].text}"))
    words = {id(t): k for k, t in enumerate(claim.tokens)}
    return Names(findings, frozenset(words[id(cw[j])] for j in referents))


def _names(side: Side, words: tuple[Token, ...]) -> set[int]:
    out: set[int] = set()
    letters = [c for c in side.text if c.isalpha()]
    shouting = sum(c.isupper() for c in letters) > 0.6 * len(letters)  # a headline in capitals
    for i, t in enumerate(words):
        text = t.text
        if t.kind != "word" or not text[:1].isupper() or t.low in SKIP_EN or t.low in _TITLES:
            continue
        if t.low in MONTHS or t.low in WEEKDAYS or t.low in UNITS:
            continue
        digits = any(c.isdigit() for c in text)
        if shouting:
            if digits:
                out.add(i)
            continue
        caps = sum(c.isupper() for c in text) >= 2 or digits
        initial = i == 0 or bool(_SENTENCE_END.search(side.text[words[i - 1].end : t.start]))
        follows = i + 1 < len(words) and words[i + 1].text[:1].isupper() and words[i + 1].kind == "word"
        if caps or not initial or follows:
            out.add(i)
    return out


class _Known:
    """Does a claim name (or its acronym, expansion or demonym) occur in the quote?"""

    def __init__(self, quote: tuple[Token, ...], claim: tuple[Token, ...]) -> None:
        self.lows = {t.low for t in quote}
        self.keys = {t.key for t in quote if t.kind == "word" and len(t.low) > 3}
        self.capitals = [t.low for t in quote if t.text[:1].isupper()]
        self.acronyms = _acronyms(quote)
        quote_acronyms = [t.text for t in quote if t.text.isupper() and len(t.text) >= 2]
        claim_acronyms = _acronyms(claim)
        self.expanded = {
            t.text
            for a in quote_acronyms
            if a in claim_acronyms
            for t in claim
            if t.text[:1].isupper() and t.text[0] in a
        }

    def __call__(self, tok: Token) -> bool:
        if tok.low in self.lows or (len(tok.low) > 3 and tok.key in self.keys):
            return True
        if any(_demonym(tok.low, other) for other in self.capitals):
            return True
        if tok.text.isupper() and len(tok.text) >= 2 and tok.text in self.acronyms:
            return True
        return tok.text in self.expanded


def _capitalised(tok: Token) -> bool:
    """A capitalised word that is no function word: at a sentence start it may be a name
    ("France left the EU" for "The UK left the EU")."""
    return tok.kind == "word" and tok.text[:1].isupper() and tok.low not in SKIP_EN and tok.low not in UNITS


def _demonym(a: str, b: str) -> bool:
    if _DEMONYMS.get(a) == b or _DEMONYMS.get(b) == a:
        return True
    n = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if n >= 4 and (
        a.startswith(b) or b.startswith(a) or a.endswith(_DEMONYM_ENDINGS) or b.endswith(_DEMONYM_ENDINGS)
    ):
        return True
    return n >= 3 and (a.endswith(_DEMONYM_ENDINGS) != b.endswith(_DEMONYM_ENDINGS))


def _acronyms(words: tuple[Token, ...]) -> set[str]:
    """Initials of every capitalised run ("World Health Organization" -> WHO, "United Nations" -> UN)."""
    out: set[str] = set()
    run: list[str] = []
    for t in (*words, None):
        if t is not None and t.kind == "word" and (t.text[:1].isupper() or (run and t.low in _NAME_JOINERS)):
            run.append(t.text)
            continue
        caps = [w[0] for w in run if w[:1].isupper()]
        for a in range(len(caps)):
            for b in range(a + 2, len(caps) + 1):
                out.add("".join(caps[a:b]))
        run = []
    return out


def _run(words: tuple[Token, ...], idx: list[int]) -> str:
    """The whole capitalised run around the first index ("William James")."""
    a = b = idx[0]
    while a > 0 and words[a - 1].text[:1].isupper() and words[a - 1].low not in SKIP_EN:
        a -= 1
    while b + 1 < len(words) and words[b + 1].text[:1].isupper():
        b += 1
    return " ".join(t.text for t in words[a : b + 1])


# --- Chinese -----------------------------------------------------------------------------


def _chinese(quote: Side, claim: Side) -> Names:
    q, c = quote.low, claim.low
    ops, ratio = align(q, c)
    findings: list[Finding] = []
    referents: set[int] = set()
    opcodes = [op for op in ops if op[0] == "replace"]
    # a swapped name leaves the rest of the sentence in place; a rewritten sentence has no slots
    same_sentence = bool(opcodes) and ratio >= 0.5
    q_tags: list[tuple[int, int, str]] = []
    c_tags: list[tuple[int, int, str]] = []
    for _, i1, i2, j1, j2 in opcodes:
        qs, cs = q[i1:i2], c[j1:j2]
        if qs.strip("的").startswith(ANAPHORS_ZH) or qs in ANAPHORS_ZH:
            referents.update(range(claim.token_at(j1), claim.token_at(j2 - 1) + 1))
            continue
        if not same_sentence or len(qs) > 8 or len(cs) > 8 or cs in q or (qs in _CUE_ZH and cs in _CUE_ZH):
            continue
        if not (q_tags or c_tags):  # the tagger only for a candidate swap (~10-50 us a sentence)
            q_tags, c_tags = _tagged(quote.text), _tagged(claim.text)
        qw, cw = _word(q, i1, i2, q_tags), _word(c, j1, j2, c_tags)
        q_word, c_word = q[qw[0] : qw[1]], c[cw[0] : cw[1]]
        if _NUMERIC.search(q_word) or _NUMERIC.search(c_word):
            continue  # a figure: the number rule's
        if _name_like(q, qw, q_tags) and _name_like(c, cw, c_tags):
            findings.append(
                Finding(
                    "entity",
                    f"the quote names {quote.text[qw[0] : qw[1]]}, the claim {claim.text[cw[0] : cw[1]]}",
                )
            )
    return Names(findings, frozenset(referents))


_NUMERIC = re.compile(
    r"(?<![A-Za-z])\d+(?![A-Za-z])|[零〇一二两兩三四五六七八九十百千万萬亿億]+[个個名位种種次倍年月日天岁歲成%]"
    r"|^[零〇一二两兩三四五六七八九十百千]+$"
)


def _tagged(text: str) -> list[tuple[int, int, str]]:
    tag = zh_tagger()
    if tag is None:
        return []
    out, pos = [], 0
    for word, flag in tag(text):
        out.append((pos, pos + len(word), flag))
        pos += len(word)
    return out


def _word(text: str, a: int, b: int, tags: list[tuple[int, int, str]]) -> tuple[int, int]:
    """The changed characters widened to the words around them (and a following suffix)."""
    for s, e, _ in tags:
        if s <= a < e:
            a = s
        if s < b <= e:
            b = e
    for suffix in sorted(_ZH_SUFFIX, key=len, reverse=True):
        if text.startswith(suffix, b) and CJK_CHAR.match(text[b : b + 1]):
            return a, b + len(suffix)
    return a, b


def _name_like(text: str, span: tuple[int, int], tags: list[tuple[int, int, str]]) -> bool:
    a, b = span
    word = text[a:b]
    if not word or not (CJK_CHAR.match(word[0]) or word[0].isalnum()) or set(word) & set(",，。、:：;；"):
        return False
    return any(s < b and a < e and flag in _ZH_TAGS for s, e, flag in tags) or name_like_text(word)


def name_like_text(word: str) -> bool:
    """A Chinese word that reads as a name without a tagger: suffix, transliteration, surname."""
    if not word or not CJK_CHAR.match(word[0]):
        return word.isascii() and any(ch.isalpha() for ch in word)
    if word.endswith(_ZH_SUFFIX):
        return True
    if sum(ch in _TRANSLIT for ch in word) >= 2:
        return True
    return 2 <= len(word) <= 3 and word[0] in _SURNAMES
