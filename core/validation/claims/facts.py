"""Numbers, units, bounds, rates and dates: does every figure the claim states agree with one
the quote states?

A claim figure with an equal figure in the quote (after units: 3 km = 3000 m) is fine. One that
has none is a contradiction when the quote states a figure of the same kind the claim leaves
out (the quote's 42 percent became the claim's 90 percent); otherwise the claim adds a figure
the quote does not have, which is unsupported. Bounds must agree ("at least 8 hours" vs "at
most 8 hours"), and so must rates ("per second" vs "per minute").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.validation.claims.dates import DateMention, find_dates
from core.validation.claims.quantities import Quantity, quantities
from core.validation.claims.text import Side
from core.validation.claims.units import RATE_EN, UNITS

_FIELD_NAME = {"weekday": "day", "tod": "time of day", "rel": "date", "part": "date", "decade": "date"}


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # number | date | negation | entity | quantifier | modality | comparison | unsupported
    message: str

    @property
    def contradicts(self) -> bool:
        return self.kind != "unsupported"


@dataclass(frozen=True, slots=True)
class Facts:
    dates: list[DateMention]
    numbers: list[Quantity]
    rates: list[tuple[str, str]]  # (unit, text)

    @classmethod
    def of(cls, side: Side) -> Facts:
        dates, used = find_dates(side.text)
        return cls(dates, quantities(side, used), rates(side.text))


def compare(quote: Facts, claim: Facts) -> list[Finding]:
    return [*_numbers(quote, claim), *_dates(quote, claim), *_rates(quote, claim)]


def _family(dim: str) -> str:
    return dim.split(":")[0].replace("temp_c", "temp").replace("temp_f", "temp")


def _kin(a: Quantity, b: Quantity) -> bool:
    kinds = {a.kind, b.kind}
    if len(kinds) > 1 and kinds != {"count", "vague"}:
        return False
    if bool(a.dim) != bool(b.dim) and (a.counted or b.counted):
        return False  # "eleven provinces" is no rival of "6300 km"
    return not (a.dim and b.dim and _family(a.dim) != _family(b.dim))


def _close(a: float, b: float, approx: bool) -> bool:
    if a == b:
        return True
    return abs(a - b) <= (0.03 if approx else 1e-6) * max(abs(a), abs(b))


def same(a: Quantity, b: Quantity) -> bool:
    if not _kin(a, b):
        return False
    approx = a.approx or b.approx
    if a.kind == "ordinal":
        return a.value == b.value and (not a.unit or not b.unit or a.unit == b.unit)
    if a.dim and b.dim:
        return a.dim == b.dim and _close(a.base, b.base, approx)
    return _close(a.value, b.value, approx)


def _numbers(quote: Facts, claim: Facts) -> list[Finding]:
    out: list[Finding] = []
    matched: set[int] = set()
    loose: list[Quantity] = []
    years = {int(d.value) for d in quote.dates if d.field == "year"}
    for c in claim.numbers:
        hits = [k for k, q in enumerate(quote.numbers) if same(c, q)]
        # an equal figure counting the same thing is the match (the claim's 兩種 is not the quote's 兩個)
        hits = [k for k in hits if c.noun and quote.numbers[k].noun == c.noun] or hits
        if not hits:
            if not (c.kind == "count" and c.value in years):
                loose.append(c)
            continue
        matched.update(hits)
        if c.bound and all(quote.numbers[k].bound == -c.bound for k in hits):
            q = quote.numbers[hits[0]]
            said = f"the quote says {_bounded(q)} {q.label}, the claim {_bounded(c)} {c.label}"
            out.append(Finding("comparison", said))
    orphans = [q for k, q in enumerate(quote.numbers) if k not in matched]
    for c in loose:
        rivals = [q for q in orphans if _kin(c, q)]
        if rivals:
            q = max(rivals, key=lambda q: (q.noun == c.noun, q.unit == c.unit, q.dim == c.dim))
            out.append(Finding("number", f"the quote says {q.label}, the claim {c.label}"))
        else:
            out.append(Finding("unsupported", f"the quote gives no figure like {c.label}"))
    return out


def _bounded(q: Quantity) -> str:
    return "at least" if q.bound > 0 else "at most" if q.bound < 0 else ""


def _dates(quote: Facts, claim: Facts) -> list[Finding]:
    out: list[Finding] = []
    counts = {q.value for q in quote.numbers if q.kind == "count"}
    seen: set[tuple[str, str]] = set()
    for d in claim.dates:
        if (d.field, d.value) in seen:
            continue
        seen.add((d.field, d.value))
        same_field = [q for q in quote.dates if q.field == d.field]
        if any(q.value == d.value for q in same_field):
            continue
        if d.field == "year" and float(d.value) in counts:
            continue
        claimed = {x.value for x in claim.dates if x.field == d.field}
        rivals = [q for q in same_field if q.value not in claimed] or same_field
        if rivals:
            out.append(Finding("date", f"the quote says {rivals[0].text}, the claim {d.text}"))
        elif d.field not in ("tod", "part"):
            out.append(
                Finding(
                    "unsupported", f"the quote gives no {_FIELD_NAME.get(d.field, d.field)} like {d.text}"
                )
            )
    return out


_RATE_EN = re.compile(
    r"\b(?:(per|each|every)|(a|an))\s+(second|minute|hour|day|night|week|month|year)s?\b"
    r"|\b(daily|weekly|monthly|yearly|annually|hourly|nightly)\b",
    re.IGNORECASE,
)
_RATE_ZH = re.compile(
    r"每\s*(秒钟|秒鐘|秒|分钟|分鐘|小时|小時|天|日|晚|夜|周|週|星期|月|年)(?![一二三四五六日天])"
)


def rates(text: str) -> list[tuple[str, str]]:
    """Per-unit rates: "per second", "nine hours a night", "daily", 每年."""
    out = []
    for m in _RATE_EN.finditer(text):
        if m.group(4):
            word = RATE_EN[m.group(4).lower()]
        elif m.group(2) and not re.search(
            r"\d|\b(?:hours?|times?|twice|once)\b", text[max(0, m.start() - 25) : m.start()]
        ):
            continue  # "after a week" is a duration, not a rate
        else:
            word = m.group(3).lower()
        out.append((UNITS[word][2], m.group(0)))
    for m in _RATE_ZH.finditer(text):
        out.append((UNITS[m.group(1)][2], m.group(0)))
    return out


def _rates(quote: Facts, claim: Facts) -> list[Finding]:
    have = {unit for unit, _ in quote.rates}
    out = []
    for unit, text in claim.rates:
        if have and unit not in have:
            other = (
                next(t for u, t in quote.rates if u not in {x for x, _ in claim.rates})
                if any(u not in {x for x, _ in claim.rates} for u in have)
                else quote.rates[0][1]
            )
            out.append(Finding("number", f"the quote says {other}, the claim {text}"))
    return out
