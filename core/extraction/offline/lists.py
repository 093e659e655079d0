"""Lists in a sentence ("A, B and C"; "甲、乙和丙"): an item of one is never a cloze blank,
the card would be a set to learn (the 20 rules' "no sets")."""

from __future__ import annotations

import re

from core.extraction.offline import english

_LIST_MARK = re.compile(r"^(?:including|such as|among others|among them|e\.g\.|notably|namely|like)\s*", re.I)
_SEPARATOR = re.compile(r",\s+|\s+[–—]\s+|;\s+|:\s+")
_ZH_JOIN = frozenset({"和", "及", "与", "與", "或", "以及"})


def list_spans(content: str) -> list[tuple[int, int]]:
    """Where the content lists three or more items ("A, B and C"; "甲、乙和丙"): runs of short
    comma-separated pieces without a verb, or Chinese words joined by 、."""
    if re.search(r"[\u3400-\u9fff]", content):
        return _zh_lists(content)
    pieces, at = [], 0
    for m in _SEPARATOR.finditer(content + ", "):
        pieces.append((at, m.start()))
        at = m.end()
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    lead: tuple[int, int] | None = None  # the noun phrase ending the clause before a run
    for a, b in [*pieces, (len(content), len(content))]:
        text = content[a:b]
        mark = _LIST_MARK.match(text)
        a2 = a + (mark.end() if mark else 0)
        item = content[a2:b].strip(" .")
        if item and len(item.split()) <= 8 and not _has_verb(item):
            run.append((a2, a2 + len(content[a2:b].rstrip(" ."))))
            continue
        tail = _leading_items(content, a2, b) if (run or lead) else None
        if tail is not None:  # "..., algae and some bacteria convert ...": the last items, then the verb
            run.append(tail)
        if run:
            items = sum(_count_items(content[x:y]) for x, y in run) + (lead is not None)
            if items >= 3:
                spans.append(((lead or run[0])[0], run[-1][1]))
        run = []
        lead = _trailing_noun_phrase(content, a, b)
    return spans


def _leading_items(content: str, a: int, b: int) -> tuple[int, int] | None:
    """The items a clause opens with before its verb, when joined by "and"/"or" ("algae and
    some bacteria convert ..." -> "algae and some bacteria")."""
    tokens = english.tag(content[a:b])
    verb = next(
        (k for k, t in enumerate(tokens) if t.pos in {"VERB", "AUX"} or _verb_after_noun(tokens, k)), None
    )
    if not verb or verb > 8:
        return None
    before = tokens[:verb]
    if not any(t.text.lower() in {"and", "or"} for t in before) or before[-1].pos not in {
        "NOUN",
        "PROPN",
        "NUM",
    }:
        return None
    return a + before[0].start, a + before[-1].end


def _trailing_noun_phrase(content: str, a: int, b: int) -> tuple[int, int] | None:
    """The noun phrase a clause ends on ("needs light" -> "light"): a list's first item."""
    tokens = english.tag(content[a:b])
    k = len(tokens)
    while k > 0 and tokens[k - 1].pos in {"NOUN", "PROPN", "NUM", "ADJ"}:
        k -= 1
    if k == len(tokens) or k == 0:
        return None
    return a + tokens[k].start, a + tokens[-1].end


def _verb_after_noun(tokens: list[english.Token], k: int) -> bool:
    """A word the lexicon knows as a verb right after a noun ("bacteria convert"), which the
    tagger may have read as a noun."""
    return (
        k > 0
        and tokens[k - 1].pos in {"NOUN", "PROPN"}
        and "VERB" in english.lexicon().get(tokens[k].text.lower(), {})
        and tokens[k].text[:1].islower()
    )


def _has_verb(text: str) -> bool:
    return any(t.pos in {"VERB", "AUX"} for t in english.tag(text))


def _count_items(text: str) -> int:
    return len([p for p in re.split(r"\s+(?:and|or)\s+", text) if p.strip()])


def _zh_lists(content: str) -> list[tuple[int, int]]:
    from core.extraction.offline.segment import zh_words

    words = zh_words(content)
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(words):
        j, items = k, 1
        while j + 2 < len(words) and (words[j + 1][0] == "、" or words[j + 1][0] in _ZH_JOIN):
            j += 2
            items += 1
        if items >= 3:
            spans.append((words[k][2], words[j][3]))
        k = j + 1
    return spans
