"""The numbers a text states, each with its kind, unit, bound and span.

A quantity is a count ("three hearts", 一千名), an ordinal ("second stage", 第三天), a percent
(42%, "42 per cent", 百分之四十二, 六成, and fractions: "a third", 三分之一, "1 in 8"), a multiplier
("twice", "three times", 两倍) or a vague order of magnitude ("millions of years", 數百萬年).
Units convert to a base (3 km = 3000 m, 一週 = 7 days, 半小時 = 30 minutes) so equal amounts in
different units match and equal numbers in different units ("3 km" / "3 miles") do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.text.cjk import HAN_RE
from core.validation.claims import units as U
from core.validation.claims.lexicon import words
from core.validation.claims.numerals import (
    DENOMINATORS_EN,
    MULTIPLIERS_EN,
    ORDINAL_SUFFIX,
    ORDINALS_EN,
    SCALES_EN,
    TENS_EN,
    UNITS_EN,
    VAGUE_EN,
    ZH_NUMERAL_CHARS,
    en_words,
    zh_value,
)
from core.validation.claims.text import Side, Token, is_content


@dataclass(frozen=True, slots=True)
class Quantity:
    value: float  # in its own unit; percent in percentage points
    kind: str  # count | ordinal | percent | times | vague
    dim: str  # "" (no unit), time, length, mass, money:USD, age, ...
    base: float  # value in the dimension's base unit
    unit: str  # the unit as a reader names it ("km", "hours", "USD")
    bound: int  # +1 at least / more than, -1 at most / under, 0 neither
    approx: bool
    start: int
    end: int
    text: str
    noun: str = ""  # what a bare count counts ("heart" of "three hearts", 个 of 十一个): no measurement
    shown: str = ""  # the figure with what it counts, for a reader ("three hearts", 兩個階段)

    @property
    def counted(self) -> bool:
        return bool(self.noun)

    @property
    def label(self) -> str:
        return self.shown or self.text


_PRONOUN_ONE_BEFORE = frozenset(words("the a this that each every any no another which one"))
_PRONOUN_ONE_AFTER = frozenset(words("of who that which another"))


def quantities(side: Side, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Every quantity outside the spans dates already used."""
    found = _chinese(side.text) if side.zh or HAN_RE.search(side.text) else []
    found += _english(side, [*taken, *((q.start, q.end) for q in found)])
    return [q for q in found if not any(a < q.end and q.start < b for a, b in taken)]


# --- English -----------------------------------------------------------------------------


def _english(side: Side, taken: list[tuple[int, int]]) -> list[Quantity]:
    toks = [t for t in side.tokens if t.kind != "cjk" and not any(a <= t.start < b for a, b in taken)]
    lows = [t.low for t in toks]
    out: list[Quantity] = []
    i = 0
    while i < len(toks):
        got = _en_number(toks, lows, i)
        if got is None:
            i += 1
            continue
        value, kind, j = got
        q = _en_unit(side, toks, lows, i, j, value, kind)
        out.append(q)
        i = max(i + 1, j)
        while i < len(toks) and toks[i].start < q.end:
            i += 1
    return out


_Number = tuple[float, str, int]  # value, kind, index of the token after it


def _en_number(toks: list[Token], lows: list[str], i: int) -> _Number | None:
    """(value, kind, index after) for a number starting at token i."""
    w = lows[i]
    nxt = lows[i + 1] if i + 1 < len(lows) else ""
    if toks[i].kind == "num":
        return _en_digits(toks, lows, i)
    part = _part_of_unit(lows, i)
    if part is not None:
        return part
    if (
        w in ("a", "an", "one")
        and nxt in DENOMINATORS_EN
        and nxt != "second"
        and not _noun_after(toks, i + 2)
    ):
        return 100 / DENOMINATORS_EN[nxt], "percent", i + 2  # "a third of", not "a third heart attack"
    if w == "half" and (not i or lows[i - 1] not in UNITS_EN):
        return 50.0, "percent", i + 1
    if w in VAGUE_EN and nxt == "of":
        return VAGUE_EN[w], "vague", i + 1
    if w in MULTIPLIERS_EN:
        return float(MULTIPLIERS_EN[w]), "times", i + 1
    if w in ORDINALS_EN and not _unit_second(toks, lows, i):
        return float(ORDINALS_EN[w]), "ordinal", i + 1
    if w in UNITS_EN or w in TENS_EN or (w == "a" and nxt in SCALES_EN):
        return _en_words(toks, lows, i)
    one = w in ("a", "an") and nxt in _ONE_UNIT and not _after_number(toks, i)
    if (one and not (nxt == "second" and _noun_after(toks, i + 2))) or (w in _THE and nxt in _LONG_UNIT):
        return 1.0, "count", i + 1  # "after a week", "the past decade": one of the unit
    return None


def _en_digits(toks: list[Token], lows: list[str], i: int) -> _Number | None:
    """12, 1,200, 3.2 billion, $5m, 21st, "1 in 8", 2/3."""
    t, nxt = toks[i], lows[i + 1] if i + 1 < len(lows) else ""
    if i and toks[i - 1].kind == "word" and toks[i - 1].end == t.start:
        return None  # part of a name: CO2, FADH2
    value = float(lows[i].replace(",", ""))
    if nxt in ORDINAL_SUFFIX and toks[i + 1].start == t.end:
        return value, "ordinal", i + 2
    after = toks[i + 2] if i + 2 < len(toks) else None
    if (
        after is not None
        and after.kind == "num"
        and (nxt == "in" or (nxt == "/" and after.start == t.end + 1))
    ):
        den = float(after.low.replace(",", ""))  # "1 in 8", "2/3"
        if 0 < value < den and (nxt == "in" or den <= 100):
            return 100 * value / den, "percent", i + 3
    if (nxt in SCALES_EN and nxt != "hundred") or (nxt == "m" and i and lows[i - 1] in U.CURRENCY_SYMBOLS):
        return value * SCALES_EN.get(nxt, 1e6), "count", i + 2
    return value, "count", i + 1


def _en_words(toks: list[Token], lows: list[str], i: int) -> _Number | None:
    """ "two hundred", "twelve hundred", "two thirds", "one in eight"; "one" as a pronoun is none."""
    w, nxt = lows[i], lows[i + 1] if i + 1 < len(lows) else ""
    if w == "one" and ((i and lows[i - 1] in _PRONOUN_ONE_BEFORE) or nxt in _PRONOUN_ONE_AFTER):
        return None
    parsed = en_words(lows[i : i + 8])
    if parsed is None:
        return None
    value, used = parsed
    j = i + used
    fraction = j < len(lows) and lows[j] in DENOMINATORS_EN and value <= 10 and lows[j] != "second"
    if fraction and not _noun_after(toks, j + 1):  # "two thirds of", not "two second helpings"
        return 100 * value / DENOMINATORS_EN[lows[j]], "percent", j + 1
    if j + 1 < len(lows) and lows[j] == "in" and (per := en_words(lows[j + 1 : j + 3])) and value < per[0]:
        return 100 * value / per[0], "percent", j + 1 + per[1]  # "one in eight"
    return value, "count", j


def _part_of_unit(lows: list[str], i: int) -> tuple[float, str, int] | None:
    """ "a quarter of an hour", "half an hour", "three quarters of a mile": that share of one
    unit; the index returned is the unit's, which the unit reader takes next."""
    k, share = i, 0.0
    if lows[k] in ("a", "an", "one") and k + 1 < len(lows) and lows[k + 1] in DENOMINATORS_EN:
        share, k = 1 / DENOMINATORS_EN[lows[k + 1]], k + 2
    elif (
        lows[k] in UNITS_EN
        and k + 1 < len(lows)
        and lows[k + 1] in DENOMINATORS_EN
        and UNITS_EN[lows[k]] <= 10
    ):
        share, k = UNITS_EN[lows[k]] / DENOMINATORS_EN[lows[k + 1]], k + 2
    elif lows[k] == "half":
        share, k = 0.5, k + 1
    elif lows[k] in DENOMINATORS_EN and lows[k + 1 : k + 2] == ["of"]:  # "every quarter of an hour"
        share, k = 1 / DENOMINATORS_EN[lows[k]], k + 1
    else:
        return None
    if k < len(lows) and lows[k] == "of":
        k += 1
    if k + 1 < len(lows) and lows[k] in ("a", "an") and lows[k + 1] in U.UNITS:
        return share, "count", k + 1
    return None


def _noun_after(toks: list[Token], i: int) -> bool:
    return i < len(toks) and toks[i].kind == "word" and is_content(toks[i]) and toks[i].low != "of"


_ONE_UNIT = frozenset(words("second minute hour day week fortnight month year decade century"))
_LONG_UNIT = frozenset({"decade", "century"})
_THE = frozenset({"the", "past", "last", "a"})


def _after_number(toks: list[Token], i: int) -> bool:
    """ "nine hours a night", "twice a day": a rate, not one more quantity."""
    return any(
        t.kind == "num" or t.low in UNITS_EN or t.low in MULTIPLIERS_EN for t in toks[max(0, i - 3) : i]
    )


def _unit_second(toks: list[Token], lows: list[str], i: int) -> bool:
    """ "per second", "30 seconds": the time unit; "a second heart attack": the ordinal."""
    if lows[i] != "second" or i == 0:
        return False
    prev = lows[i - 1]
    return (
        prev in ("per", "each", "every")
        or prev[:1].isdigit()
        or (prev == "a" and not _noun_after(toks, i + 1))
    )


def _en_unit(
    side: Side, toks: list[Token], lows: list[str], i: int, j: int, value: float, kind: str
) -> Quantity:
    """Read what follows (percent, times, a unit) and what precedes (currency, bound, approx)."""
    dim, factor, unit = "", 1.0, ""
    end = toks[j - 1].end
    k = j + 1 if j < len(lows) and lows[j] == "-" else j  # "three-kilometre"
    if kind == "count" and k < len(lows):
        if lows[k] in ("%", "percent") or lows[k : k + 2] == ["per", "cent"]:
            kind, end = "percent", toks[k + (1 if lows[k] == "per" else 0)].end
        elif lows[k] in ("times", "fold"):
            kind, end = "times", toks[k].end
        else:
            cubic = lows[k] in ("cubic", "square")
            word = lows[k + 1] if cubic and k + 1 < len(lows) else lows[k]
            if word in ("degree", "degrees") and k + 1 < len(lows) and lows[k + 1] in U.UNITS:
                k, word = k + 1, lows[k + 1]  # "100 degrees Celsius"
            if word in U.UNITS and not (word in ("m", "s", "h", "g") and toks[k].start - end > 1):
                dim, factor, unit = U.UNITS[word]
                if cubic:
                    dim, factor, unit = (
                        f"{lows[k]} {dim}",
                        factor ** (3 if lows[k] == "cubic" else 2),
                        f"{lows[k]} {unit}",
                    )
                end = toks[k + (1 if cubic else 0)].end
    elif kind == "ordinal" and k < len(lows) and toks[k].kind == "word" and is_content(toks[k]):
        unit, end = toks[k].key, toks[k].end  # "first day" vs "first week": the label must agree
    counted = kind == "count" and not dim and k < len(lows) and toks[k].kind == "word" and is_content(toks[k])
    noun, shown_end = (toks[k].key, toks[k].end) if counted else ("", end)
    start = toks[i].start
    if i and lows[i - 1] in U.CURRENCY_SYMBOLS:
        dim, factor, unit = U.UNITS[lows[i - 1]]
        start = toks[i - 1].start
    bound = _bound_en(lows, i, j)
    approx = bool(i and lows[i - 1] in U.APPROX_EN) or (i > 1 and lows[i - 2 : i] == ["close", "to"])
    text = side.text[start:end]
    return Quantity(
        value,
        kind,
        dim,
        value * factor,
        unit,
        bound,
        approx,
        start,
        end,
        text,
        noun,
        side.text[start:shown_end],
    )


def _bound_en(lows: list[str], i: int, j: int) -> int:
    start = i - 1 if i and lows[i - 1] in U.CURRENCY_SYMBOLS else i
    for sign, table in ((1, U.LOWER_EN), (-1, U.UPPER_EN)):
        for phrase in table:
            n = len(phrase)
            if start >= n and tuple(lows[start - n : start]) == phrase:
                return sign
    after = lows[j : j + 2]
    if after in (["or", "more"], ["and", "over"], ["and", "above"]):
        return 1
    if after in (["or", "less"], ["or", "fewer"], ["and", "under"]):
        return -1
    return 0


# --- Chinese -----------------------------------------------------------------------------

_ZH_NUM = rf"(?:\d+(?:,\d{{3}})*(?:\.\d+)?[万萬亿億]*|[{ZH_NUMERAL_CHARS}]+|[数數几幾][十百千万萬亿億]+)"
_ZH_UNIT = "|".join(re.escape(u) for u in U.ZH_UNIT_WORDS + list(U.ZH_CLASSIFIERS) + ["日", "年", "周", "週"])
_ZH_QTY = re.compile(
    rf"(?P<ord>第)?(?P<pct>百分之)?(?P<num>{_ZH_NUM})(?:分之(?P<num2>{_ZH_NUM}))?(?P<more>多|余|餘)?\s*(?P<unit>{_ZH_UNIT})?"
)
_ZH_HALF = re.compile(r"(?<![一二两兩三四五六七八九十\d])半(?:个|個)?(小时|小時|天|年|个月|個月)")
_ZH_FRACTION = re.compile(r"(?<![\d/])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/])")
_ZH_VAGUE = {"数": 1, "數": 1, "几": 1, "幾": 1}


def _chinese(text: str) -> list[Quantity]:
    out: list[Quantity] = []
    for m in _ZH_FRACTION.finditer(text):
        num, den = float(m.group(1)), float(m.group(2))
        if 0 < num < den:
            out.append(
                Quantity(100 * num / den, "percent", "", 100 * num / den, "", 0, False, *m.span(), m.group(0))
            )
    for m in _ZH_QTY.finditer(text):
        q = _zh_one(text, m)
        if q is not None and not any(o.start < q.end and q.start < o.end for o in out):
            out.append(q)
    for m in _ZH_HALF.finditer(text):
        dim, factor, unit = U.UNITS[m.group(1)]
        out.append(Quantity(0.5, "count", dim, 0.5 * factor, unit, 0, False, m.start(), m.end(), m.group(0)))
    return out


def _zh_one(text: str, m: re.Match[str]) -> Quantity | None:
    num, unit_word = m.group("num"), m.group("unit") or ""
    cjk_only = not num[0].isdigit()
    if cjk_only and not (unit_word or m.group("ord") or m.group("pct") or m.group("num2")):
        return None  # 一些, 一切, 统一: a numeral character that counts nothing
    if num[0] in _ZH_VAGUE:
        value, kind = zh_value("一" + num[1:]) or 0.0, "vague"
    else:
        value, kind = zh_value(num) or 0.0, "count"
    if not value and num not in ("零", "〇", "0"):
        return None
    dim, factor, unit = "", 1.0, ""
    if m.group("num2"):  # 三分之一: the denominator comes first
        den, value = value, zh_value(m.group("num2")) or 0.0
        if not den:
            return None
        value, kind = 100 * value / den, "percent"
    elif m.group("pct"):
        kind = "percent"
    elif m.group("ord"):
        kind, unit = "ordinal", unit_word
    elif unit_word == "倍":
        kind = "times"
    elif unit_word == "成" and value <= 10:
        value, kind = value * 10, "percent"
    elif unit_word in U.UNITS:
        dim, factor, unit = U.UNITS[unit_word]
    if kind == "count" and text[m.end() : m.end() + 1] == "%":
        kind = "percent"
    start, end = m.start(), m.end() + (1 if text[m.end() : m.end() + 1] == "%" else 0)
    before, after = text[max(0, start - 4) : start], text[end : end + 2]
    bound = 1 if before.endswith(U.LOWER_ZH) or after.startswith(U.LOWER_ZH_AFTER) or m.group("more") else 0
    bound = -1 if before.endswith(U.UPPER_ZH) or after.startswith(U.UPPER_ZH_AFTER) else bound
    approx = before.endswith(U.APPROX_ZH) or after.startswith(U.APPROX_ZH_AFTER)
    noun = unit_word if kind == "count" and not dim and unit_word in U.ZH_CLASSIFIERS else ""
    shown = text[start:end] + (_ZH_COUNTED.match(text, end).group(0) if noun else "")  # type: ignore[union-attr]
    q = Quantity(
        value, kind, dim, value * factor, unit, bound, approx, start, end, text[start:end], noun, shown
    )
    return _money_prefix(text, q)


_ZH_COUNTED = re.compile(r"[^\W\d的了是在和与與及或也都而，。、]{0,2}")


def _money_prefix(text: str, q: Quantity) -> Quantity:
    """新台幣五百億元, 美元 after the number: the currency is the unit."""
    for word in ("美元", "英镑", "英鎊", "欧元", "歐元", "日元", "港元"):
        if text.startswith(word, q.end) or text.startswith(word, q.end - len(q.unit)):
            dim, factor, unit = U.UNITS[word]
            return replace(q, dim=dim, unit=unit, base=q.value * factor)
    return q
