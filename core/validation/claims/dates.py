"""Dates in a text: years, months, days of the month, weekdays, seasons, parts of a month,
relative days and years ("next year", 明年) and times of day, in English and Chinese.

Each mention is a (field, value) with its span; the numbers it consumed are reported so the
quantity reader does not count "1885" or "14 March" again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text.cjk import HAN_RE
from core.validation.claims.lexicon import words
from core.validation.claims.numerals import ZH_DIGITS, zh_value

MONTHS = {
    m: i + 1
    for i, m in enumerate(
        words("january february march april may june july august september october november december")
    )
}
_MONTH_ABBR = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9}
_MONTH_ABBR.update({"oct": 10, "nov": 11, "dec": 12})
WEEKDAYS = {d: i + 1 for i, d in enumerate(words("monday tuesday wednesday thursday friday saturday sunday"))}
_SEASONS = {"spring": "spring", "summer": "summer", "autumn": "autumn", "winter": "winter"}
_TOD = {
    "morning": "morning",
    "afternoon": "afternoon",
    "evening": "evening",
    "night": "evening",
    "tonight": "evening",
    "midday": "noon",
    "noon": "noon",
    "midnight": "midnight",
}
_REL = {
    "today": "day0",
    "tomorrow": "day+1",
    "yesterday": "day-1",
    "this year": "year0",
    "next year": "year+1",
    "last year": "year-1",
    "this week": "week0",
    "next week": "week+1",
    "last week": "week-1",
    "this month": "month0",
    "next month": "month+1",
    "last month": "month-1",
}
_MONTH_WORD = "|".join([*MONTHS, *_MONTH_ABBR])
_D = r"(\d{1,2})(?:st|nd|rd|th)?"
_EN_DAY_MONTH = re.compile(rf"\b{_D}\s+(?:of\s+)?({_MONTH_WORD})\b\.?(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_EN_MONTH_DAY = re.compile(rf"\b({_MONTH_WORD})\b\.?\s+{_D}(?!\d)(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_ANY_MONTH = re.compile(rf"\b(?:{_MONTH_WORD})\b", re.IGNORECASE)
_EN_MONTH_YEAR = re.compile(
    rf"\b(?:(early|mid|late)[\s-]+)?({_MONTH_WORD})\b\.?(?:\s+(\d{{4}}))?", re.IGNORECASE
)
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_EN_YEAR = re.compile(
    r"\b(?:in|since|by|from|until|till|of|around|circa|c\.|before|after|to|between|during|early|late|mid|"
    r"the|and|year)[\s-]+(\d{4})(s)?\b(?!\s*(?:%|percent|people|km|kilomet|met|mile|feet|adults|workers))",
    re.IGNORECASE,
)
_EN_WORDS = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|winter|morning|"
    r"afternoon|evening|night|tonight|midday|noon|midnight|today|tomorrow|yesterday|"
    r"(?:this|next|last) (?:year|week|month))s?\b",
    re.IGNORECASE,
)
_ZH_NUM = rf"(\d{{1,4}}|[{''.join(ZH_DIGITS)}十]{{1,4}})"
_ZH_YEAR = re.compile(rf"(\d{{4}}|[{''.join(ZH_DIGITS)}]{{4}})\s*年(?!代)")
_ZH_DECADE = re.compile(r"(\d{4})\s*年代")
_ZH_MONTH = re.compile(
    rf"(?<![个個几幾数數])(\d{{1,2}}|十[一二]?|[一二三四五六七八九])\s*月(?!份?[内內])(?:\s*{_ZH_NUM}\s*[日号號])?"
)
_ZH_WEEKDAY = re.compile(r"(?:周|週|星期|礼拜|禮拜)([一二三四五六日天])")
_ZH_WORDS = {
    **dict.fromkeys(["今年"], ("rel", "year0")),
    **dict.fromkeys(["明年"], ("rel", "year+1")),
    **dict.fromkeys(["去年"], ("rel", "year-1")),
    **dict.fromkeys(["今天", "今日"], ("rel", "day0")),
    **dict.fromkeys(["明天", "明日"], ("rel", "day+1")),
    **dict.fromkeys(["昨天", "昨日"], ("rel", "day-1")),
    **dict.fromkeys(["春天", "春季"], ("season", "spring")),
    **dict.fromkeys(["夏天", "夏季"], ("season", "summer")),
    **dict.fromkeys(["秋天", "秋季"], ("season", "autumn")),
    **dict.fromkeys(["冬天", "冬季"], ("season", "winter")),
    **dict.fromkeys(["早上", "上午", "清晨", "早晨"], ("tod", "morning")),
    **dict.fromkeys(["下午"], ("tod", "afternoon")),
    **dict.fromkeys(["晚上", "晚间", "晚間", "傍晚", "夜晚", "夜间", "夜間"], ("tod", "evening")),
    **dict.fromkeys(["中午"], ("tod", "noon")),
    **dict.fromkeys(["上旬", "月初"], ("part", "early")),
    **dict.fromkeys(["中旬"], ("part", "mid")),
    **dict.fromkeys(["下旬", "月底", "月末"], ("part", "late")),
}
_ZH_WORD_RE = re.compile("|".join(sorted(_ZH_WORDS, key=len, reverse=True)))


@dataclass(frozen=True, slots=True)
class DateMention:
    field: str  # year | decade | month | day | weekday | season | part | rel | tod
    value: str
    start: int
    end: int
    text: str


def find_dates(text: str) -> tuple[list[DateMention], list[tuple[int, int]]]:
    """Every date mention and the character spans of the numbers they used."""
    out: list[DateMention] = []
    used: list[tuple[int, int]] = []
    _english(text, out, used)
    if HAN_RE.search(text):
        _chinese(text, out, used)
    return out, used


def _add(out: list[DateMention], m: re.Match[str], field: str, value: object) -> None:
    out.append(DateMention(field, str(value), m.start(), m.end(), m.group(0).strip()))


def _taken(used: list[tuple[int, int]], a: int, b: int) -> bool:
    return any(x < b and a < y for x, y in used)


def _month(word: str) -> int:
    w = word.lower()
    return MONTHS.get(w) or _MONTH_ABBR.get(w, 0)


def _english(text: str, out: list[DateMention], used: list[tuple[int, int]]) -> None:
    digits = _DIGIT.search(text) is not None
    months = _ANY_MONTH.search(text) is not None
    if digits:
        for m in _ISO.finditer(text):
            _add(out, m, "year", int(m.group(1)))
            _add(out, m, "month", int(m.group(2)))
            _add(out, m, "day", int(m.group(3)))
            used.append(m.span())
    if digits and months:
        _day_month(text, out, used)
    if months:
        _month_year(text, out, used)
    if digits:
        _years(text, out, used)
    for m in _EN_WORDS.finditer(text):
        word = m.group(1).lower()
        if word in WEEKDAYS:
            _add(out, m, "weekday", WEEKDAYS[word])
        elif word in _SEASONS:
            _add(out, m, "season", _SEASONS[word])
        elif word in _TOD:
            if not _per(text, m.start()):
                _add(out, m, "tod", _TOD[word])
        else:
            _add(out, m, "rel", _REL[word])


def _day_month(text: str, out: list[DateMention], used: list[tuple[int, int]]) -> None:
    """ "14 March", "March 14, 2019"."""
    for pattern, day_group, month_group in ((_EN_DAY_MONTH, 1, 2), (_EN_MONTH_DAY, 2, 1)):
        for m in pattern.finditer(text):
            word = m.group(month_group)
            if _taken(used, *m.span()) or not word[0].isupper():
                continue
            _add(out, m, "month", _month(word))
            _add(out, m, "day", int(m.group(day_group)))
            if m.group(3):
                _add(out, m, "year", int(m.group(3)))
            used.append(m.span())


def _month_year(text: str, out: list[DateMention], used: list[tuple[int, int]]) -> None:
    """ "late August", "December 2021" ("May" and "March" only where they cannot be verbs)."""
    for m in _EN_MONTH_YEAR.finditer(text):
        word = m.group(2)
        if _taken(used, *m.span(2)) or not word[0].isupper():
            continue
        if word.lower() in ("may", "march") and not (m.group(3) or m.group(1) or _after_preposition(text, m)):
            continue
        _add(out, m, "month", _month(word))
        if m.group(1):
            _add(out, m, "part", m.group(1).lower())
        if m.group(3):
            _add(out, m, "year", int(m.group(3)))
            used.append(m.span(3))


def _years(text: str, out: list[DateMention], used: list[tuple[int, int]]) -> None:
    """A four-digit year after a preposition ("in 1885", "since 2008", "the 1990s")."""
    for m in _EN_YEAR.finditer(text):
        if _taken(used, *m.span(1)) or not 1000 <= int(m.group(1)) <= 2200:
            continue
        if m.group(2):
            out.append(DateMention("decade", m.group(1), m.start(1), m.end(), m.group(1) + "s"))
        else:
            out.append(DateMention("year", str(int(m.group(1))), m.start(1), m.end(1), m.group(1)))
        used.append(m.span(1))


def _after_preposition(text: str, m: re.Match[str]) -> bool:
    before = text[: m.start()].rstrip().lower()
    return before.endswith(("in", "on", "of", "since", "until", "by", "from", "early", "late", "mid"))


def _per(text: str, start: int) -> bool:
    """ "nine hours a night": a rate, not a time of day."""
    return text[:start].rstrip().lower().endswith((" a", " an", " per", " each", " every"))


def _chinese(text: str, out: list[DateMention], used: list[tuple[int, int]]) -> None:
    for m in _ZH_YEAR.finditer(text):
        value = zh_value(m.group(1)) if not m.group(1).isdigit() else int(m.group(1))
        if value and 1000 <= value <= 2200 and not _taken(used, *m.span()):
            _add(out, m, "year", int(value))
            used.append(m.span(1))
    for m in _ZH_DECADE.finditer(text):
        _add(out, m, "decade", m.group(1))
        used.append(m.span(1))
    for m in _ZH_MONTH.finditer(text):
        month = int(m.group(1)) if m.group(1).isdigit() else int(zh_value(m.group(1)) or 0)
        if not 1 <= month <= 12 or _taken(used, *m.span()):
            continue
        _add(out, m, "month", month)
        if m.group(2):
            day = int(m.group(2)) if m.group(2).isdigit() else int(zh_value(m.group(2)) or 0)
            _add(out, m, "day", day)
        used.append(m.span())
    for m in _ZH_WEEKDAY.finditer(text):
        _add(out, m, "weekday", "一二三四五六日".find(m.group(1).replace("天", "日")) + 1)
        used.append(m.span())
    for m in _ZH_WORD_RE.finditer(text):
        field, name = _ZH_WORDS[m.group(0)]
        _add(out, m, field, name)
