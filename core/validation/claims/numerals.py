"""Numbers written as words or numerals, read as values.

English: "one thousand", "twelve hundred", "two and a half million", "twenty-five", "a dozen",
fractions ("a third", "two thirds"), ordinals ("first", "21st"), multipliers ("twice", "three
times" is read by the caller). Chinese (Simplified and Traditional): 一千, 三千二百, 三千二 (=3200),
二百三十五万, 一亿五千万, 五百零八, 一点三, digit strings for years (一八八五, 二〇二二).
"""

from __future__ import annotations

from core.validation.claims.lexicon import words

UNITS_EN = {
    w: i
    for i, w in enumerate(
        words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen"
        )
    )
}
TENS_EN = {
    w: 10 * (i + 2) for i, w in enumerate(words("twenty thirty forty fifty sixty seventy eighty ninety"))
}
SCALES_EN = {
    "hundred": 100,
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "k": 1e3,
    "bn": 1e9,
    "dozen": 12,
}
VAGUE_EN = {"dozens": 12, "hundreds": 1e2, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
ORDINALS_EN = {
    w: i + 1
    for i, w in enumerate(
        words(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
        )
    )
}
ORDINALS_EN.update({"thirtieth": 30, "fortieth": 40, "fiftieth": 50, "hundredth": 100, "last": -1})
DENOMINATORS_EN = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fourth": 4,
    "fourths": 4,
    "fifth": 5,
    "fifths": 5,
    "sixth": 6,
    "sixths": 6,
    "eighth": 8,
    "eighths": 8,
    "tenth": 10,
    "tenths": 10,
}
MULTIPLIERS_EN = {
    "twice": 2,
    "thrice": 3,
    "double": 2,
    "doubled": 2,
    "triple": 3,
    "tripled": 3,
    "quadruple": 4,
    "halve": 0.5,
    "halved": 0.5,
}
ORDINAL_SUFFIX = frozenset({"st", "nd", "rd", "th"})

ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_SMALL = {"十": 10, "百": 100, "千": 1000}
ZH_LARGE = {"万": 1e4, "萬": 1e4, "亿": 1e8, "億": 1e8}
ZH_NUMERAL_CHARS = "".join(ZH_DIGITS) + "".join(ZH_SMALL) + "".join(ZH_LARGE) + "点點"


def en_words(words: list[str]) -> tuple[float, int] | None:
    """The value of number words at the start of `words` and how many words it used.

    Handles "two hundred and five", "twelve hundred", "two and a half million", "a thousand",
    "twenty - five" (hyphen tokens). Returns None when the first word is no number word.
    """
    total = 0.0
    current = 0.0
    used = 0
    seen = False
    i = 0
    while i < len(words):
        w = words[i]
        if w in UNITS_EN or w in TENS_EN:
            current += UNITS_EN.get(w, 0) + TENS_EN.get(w, 0)
        elif w == "a" and not seen and i + 1 < len(words) and words[i + 1] in SCALES_EN:
            current = 1
        elif w in SCALES_EN and (seen or current):
            scale = SCALES_EN[w]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        elif w == "and" and seen and words[i + 1 : i + 3] == ["a", "half"]:
            current += 0.5
            i += 3
            used = i
            continue
        elif w in ("and", "-") and seen and i + 1 < len(words) and (words[i + 1] in UNITS_EN):
            i += 1
            continue
        else:
            break
        seen = seen or w != "a"
        i += 1
        used = i
    if not seen:
        return None
    return total + current, used


def zh_value(s: str) -> float | None:
    """The value of a Chinese numeral (or digits with 万/亿), or None if it is not one."""
    if not s:
        return None
    whole, _, frac = s.replace("點", "点").partition("点")
    base = _zh_whole(whole)
    if base is None:
        return None
    if frac:
        if not all(c in ZH_DIGITS for c in frac):
            return None
        base += float("0." + "".join(str(ZH_DIGITS[c]) for c in frac))
    return base


def _zh_whole(s: str) -> float | None:
    if not s:
        return None
    if s[0].isdigit():  # "6.95亿", "235万"
        head = s.rstrip("".join(ZH_LARGE))
        try:
            value = float(head.replace(",", ""))
        except ValueError:
            return None
        for c in s[len(head) :]:
            value *= ZH_LARGE[c]
        return value
    if len(s) >= 2 and all(c in ZH_DIGITS for c in s):  # 一八八五 (a year, read digit by digit)
        return float("".join(str(ZH_DIGITS[c]) for c in s))
    total = section = number = 0.0
    last_unit = 1.0
    for c in s:
        if c in ZH_DIGITS:
            number = ZH_DIGITS[c]
        elif c in ZH_SMALL:
            last_unit = ZH_SMALL[c]
            section += (number or 1) * last_unit
            number = 0
        elif c in ZH_LARGE:
            total += (section + number) * ZH_LARGE[c]
            section = number = 0
            last_unit = ZH_LARGE[c]
        else:
            return None
    if number and last_unit >= 100 and s[-2] not in "零〇":  # 三千二 = 3200, 一万五 = 15000
        number *= last_unit / 10
    return total + section + number
