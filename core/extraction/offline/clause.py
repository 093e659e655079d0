"""Minimum information: a card shows the clause that holds its fact, not the whole sentence.

Readers rejected 40-word clozes ("Like many cities in Central and ____, infrastructure in
Warsaw suffered considerably during its time as an Eastern Bloc economy – though it is worth
mentioning that ...") as overloaded: one blank in a paragraph's worth of words. When a
sentence is long, its card keeps the main clause (what the sentence is about) and the piece
that holds the blank; side pieces go: brackets, dashes, relative and concessive clauses,
"including ..." lists. The pieces kept are the writer's own words in the writer's order, so
the content stays a faithful shortening of its quote (the evidence stays the exact sentence).
"""

from __future__ import annotations

import re

from core.extraction.offline import english

LONG_EN = 24  # words: a sentence longer than this is cut to its clauses
LONG_ZH = 42  # characters
MIN_EN = 6
MIN_ZH = 10

# Where a side piece begins (its separator included): a bracket, a dash, a relative or
# concessive clause, a list lead, a semicolon.
SIDE_EN = re.compile(
    r"\s*\([^()]*\)|\s+[–—]\s+[^–—]*?(?=\s+[–—]\s+|[.;!?]?$)|\s+[–—]\s+|"
    r",\s+(?=(?:which|who|whom|whose|where|when|while|whereas|although|though|but|as well as|including|"
    r"such as|with|according to|making|leaving|bringing|giving|allowing|despite|after|before|because|"
    r"since|as|and)\b|\w+ing\b)|;\s+"
)
_ZH_SIDE = re.compile(r"[（(][^（）()]*[）)]|[，；,;]")


def shorten(content: str, lang: str, blank: tuple[int, int] | None) -> str:
    """The content cut to its main clause and the clause holding `blank` (a span of `content`)
    when it is long; the content as it is when short, or when no cut keeps it a sentence."""
    if lang == "zh":
        return _shorten_zh(content, blank) if len(content) > LONG_ZH else content
    if len(content.split()) <= LONG_EN:
        return content
    return _shorten_en(content, blank)


def _pieces(content: str, side: re.Pattern[str]) -> list[tuple[int, int, bool]]:
    """(start, end, is_side) spans covering the content: separators and brackets are sides."""
    out: list[tuple[int, int, bool]] = []
    at = 0
    for m in side.finditer(content):
        if m.start() > at:
            out.append((at, m.start(), False))
        out.append((m.start(), m.end(), True))
        at = m.end()
    if at < len(content):
        out.append((at, len(content), False))
    return out


def _shorten_en(content: str, blank: tuple[int, int] | None) -> str:
    body = content.rstrip()
    end = body[-1] if body[-1:] in ".!" else "."
    body = body.rstrip(".!")
    # brackets out (unless the blank is inside one)
    spans = [(m.start(), m.end()) for m in re.finditer(r"\s*\([^()]*\)", body)]
    keep = [(a, b) for a, b in spans if blank is not None and a <= blank[0] and blank[1] <= b]
    for a, b in reversed(spans):
        if (a, b) not in keep:
            body, blank = body[:a] + body[b:], _shift(blank, a, b)
    clauses = _clauses(body)
    if not clauses:
        return content
    main = next((c for c in clauses if _has_verb(body[c[0] : c[1]])), None)
    held = next((c for c in clauses if blank is not None and c[0] <= blank[0] and blank[1] <= c[1]), None)
    if held is None or main is None:
        return content  # no clause with a verb, or the blank across two: the sentence does not cut
    parts = sorted({main, held})
    text = ", ".join(body[a:b].strip() for a, b in parts)
    text = text[:1].upper() + text[1:]
    if len(text.split()) < MIN_EN or len(text.split()) >= len(content.split()):
        return content
    return text + end


def _clauses(body: str) -> list[tuple[int, int]]:
    """The pieces between side separators, each (start, end) in `body`."""
    out = []
    at = 0
    for m in SIDE_EN.finditer(body):
        if m.group(0).strip().startswith("("):
            continue
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    if at < len(body):
        out.append((at, len(body)))
    return [(a, b) for a, b in out if body[a:b].strip()]


def _has_verb(text: str) -> bool:
    return any(t.pos in {"VERB", "AUX"} for t in english.tag(text))


def _shift(blank: tuple[int, int] | None, a: int, b: int) -> tuple[int, int] | None:
    if blank is None or blank[0] < a:
        return blank
    return blank[0] - (b - a), blank[1] - (b - a)


def _shorten_zh(content: str, blank: tuple[int, int] | None) -> str:
    body = content.rstrip()
    end = body[-1] if body[-1:] in "。！" else "。"
    body = body.rstrip("。！；;")
    spans = [(m.start(), m.end()) for m in re.finditer(r"[（(][^（）()]*[）)]", body)]
    for a, b in reversed(spans):
        if blank is not None and a <= blank[0] and blank[1] <= b:
            continue
        body, blank = body[:a] + body[b:], _shift(blank, a, b)
    clauses = []
    at = 0
    for m in re.finditer(r"[，；,;]", body):
        clauses.append((at, m.start()))
        at = m.end()
    clauses.append((at, len(body)))
    clauses = [(a, b) for a, b in clauses if body[a:b].strip()]
    held = next(
        (k for k, c in enumerate(clauses) if blank is not None and c[0] <= blank[0] and blank[1] <= c[1]),
        None,
    )
    if held is None or not clauses:
        return content
    # From the start through the blank's clause and the one after it: a Chinese sentence's
    # first clauses are often its topic or its time ("作為一個規模較小的城市，…"; "1942年，穿著
    # 飛行服的…"), and a cut right after the blank left fragments readers rejected. Only clauses
    # after those go; nothing is taken out of the middle: the kept text reads as written.
    last = min(len(clauses) - 1, max(held, 1) + 1)
    if len(clauses) - (last + 1) < 2:
        return content if not spans else body + end  # too little to cut: the brackets only
    keep = clauses[: last + 1]
    text = "，".join(body[a:b] for a, b in keep)
    if len(text) < MIN_ZH or len(text) >= len(content):
        return content
    return text + end
