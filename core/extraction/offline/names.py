"""Whole names and compounds, which a cloze blank never cuts: English names with the small
words they carry ("University of Warsaw", "Centre for Contemporary Art", "Central and Eastern
Europe"), Chinese names joined by the interpunct ("詹姆斯·史都華"), and Chinese runs of nominal
or number words ("上海文化广播影视集团", "1949年9月2日"). jieba tags many common words as names
("荣誉" nr, "城市" ns), so a Chinese name is also checked by its length and ending (zh_name).
"""

from __future__ import annotations

import re

from core.extraction.offline import english
from core.extraction.offline.candidates import Candidate
from core.text.chinese import fold_chinese

_NAME_LINK = english.words("of for de del della di da du la le von van den der y &")
_COMPASS = english.words(
    "central eastern western northern southern north south east west upper lower middle greater new"
)
_ZH_NAME_TAGS = frozenset({"nr", "ns", "nt", "nz", "nrt", "nrfg"})


_TITLE_ABBREVIATIONS = frozenset(
    {"st", "mt", "ft", "dr", "mr", "mrs", "ms", "jr", "sr", "gen", "lt", "col", "capt", "prof"}
)
_DEMONYM = re.compile(r"(?:ian|ese|ish|ch|an|ic|i)$")


def name_spans(content: str, tokens: list[english.Token]) -> list[tuple[int, int]]:
    """Character spans of whole English names: capitalised words joined by the small words
    names carry ("University of Warsaw", "Centre for Contemporary Art"), and "Central and
    Eastern Europe"; a sentence's first word only when the next word is a name too."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not _capital(tokens, i):
            i += 1
            continue
        j = i + 1
        while j < len(tokens):
            gap = content[tokens[j - 1].end : tokens[j].start]
            before = tokens[j - 1].text
            initial = gap == ". " and (
                (len(before) == 1 and before.isupper()) or before.lower() in _TITLE_ABBREVIATIONS
            )
            if _capital(tokens, j) and (gap in {" ", "-"} or initial):  # "John D. Rockefeller", "St. Johns"
                j += 1
            elif (
                j + 1 < len(tokens)
                and _link(tokens, i, j)
                and _capital(tokens, j + 1)
                and content[tokens[j - 1].end : tokens[j + 1].start].count(" ") == 2
            ):
                j += 2
            else:
                break
        if j - i > 1 or tokens[i].pos == "PROPN":
            spans.append((tokens[i].start, tokens[j - 1].end))
        i = j
    return spans


def named_terms(content: str, tokens: list[english.Token]) -> list[tuple[int, int]]:
    """Noun phrases a name opens ("the Kuznets curve", "Calvin cycle", "Halley's comet"): a
    named term, cut by a blank on either part."""
    spans = []
    for i, j in english.noun_phrases(content, tokens):
        if (  # a sentence's first word is capitalised whatever it is: not a name by that
            j - i >= 2
            and tokens[i].pos == "PROPN"
            and tokens[i].start > 0
            and tokens[j - 1].pos == "NOUN"
            and tokens[j - 1].text[:1].islower()
        ):
            spans.append((tokens[i].start, tokens[j - 1].end))
    return spans


def _capital(tokens: list[english.Token], i: int) -> bool:
    word = tokens[i].text
    if not word[:1].isupper() or tokens[i].pos in {"DET", "PRON", "AUX", "ADP", "CCONJ"}:
        return False
    return tokens[i].pos in {"PROPN", "NOUN", "ADJ", "NUM"} or not english.lexicon().get(word.lower())


def _link(tokens: list[english.Token], i: int, j: int) -> bool:
    word = tokens[j].text.lower()
    if word in _NAME_LINK:
        return True
    if word != "and":
        return False
    left = tokens[j - 1].text.lower()
    # "Central and Eastern Europe", "the French and Indian War": a compass word or a people's
    # adjective before "and", and more of the name after it
    return left in _COMPASS or (j - i == 1 and bool(_DEMONYM.search(left)) and _more_after(tokens, j))


def _more_after(tokens: list[english.Token], j: int) -> bool:
    """Two capitalised words at least after the "and" ("Indian War"): one name goes on."""
    return j + 2 < len(tokens) and _capital(tokens, j + 1) and _capital(tokens, j + 2)


def en_names(content: str) -> list[Candidate]:
    """Whole names as blank candidates (the noun phrases split them at "of", "for", "and")."""
    tokens = english.tag(content)
    out = []
    for a, b in name_spans(content, tokens):
        text = content[a:b]
        if a == 0 and " " not in text:
            continue  # the sentence's first word alone: capitalised as every first word is
        out.append(Candidate(a, b, text, {"name": 1.0}))
    return out


_ZH_NOMINAL = frozenset({"n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "eng", "j", "l", "i"})


_ZH_NUMBERS = frozenset({"m", "mq", "q", "t"})


def zh_compounds(words: list[tuple[str, str, int, int]]) -> list[tuple[int, int]]:
    """Runs of two or more nominal words ("上海文化广播影视集团", "高氏前肛鳗") and of number and
    time words ("1949年9月2日"): a blank never covers part of one."""
    spans, k = [], 0
    while k < len(words):
        j = k
        if words[k][1] in _ZH_NUMBERS and k + 1 < len(words) and words[k + 1][1] in _ZH_NOMINAL:
            j = k + 1  # "第一次" + "世界大战": an ordinal or a count with its noun is one
            while j + 1 < len(words) and words[j + 1][1] in _ZH_NOMINAL and words[j][3] == words[j + 1][2]:
                j += 1
            if words[k][3] == words[k + 1][2] and words[j][3] - words[k][2] <= 12:
                spans.append((words[k][2], words[j][3]))
        for kind in (_ZH_NOMINAL, _ZH_NUMBERS):
            j = k
            while (
                j + 1 < len(words)
                and words[j][1] in kind
                and words[j + 1][1] in kind
                and words[j][3] == words[j + 1][2]
            ):
                j += 1
            if j > k and words[k][1] in kind:
                spans.append((words[k][2], words[j][3]))
                break
        else:
            j = k
        k = j + 1
    return spans


def zh_names(content: str, words: list[tuple[str, str, int, int]]) -> list[Candidate]:
    """Chinese names joined by the interpunct ("詹姆斯·史都華"), whole."""
    out = []
    k = 0
    while k < len(words):
        if words[k][1] in _ZH_NAME_TAGS:
            j = k
            while (
                j + 2 < len(words)
                and words[j + 1][0] in {"·", "・", "‧"}
                and words[j + 2][1] in _ZH_NAME_TAGS
            ):
                j += 2
            if j > k:
                a, b = words[k][2], words[j][3]
                out.append(Candidate(a, b, content[a:b], {"name": 1.0}))
            k = j + 1
        else:
            k += 1
    return out


_PLACE_END = frozenset("国國省市州县縣岛島江河山湖海洋洲湾灣港城镇鎮村区區府")


def zh_name(cand: Candidate) -> bool:
    """A Chinese name by jieba's tags, which tag many common words as names ("荣誉" nr, "城市"
    ns): a name of three or more characters, or of two ending like a place ("法国", "关岛")."""
    f = cand.features
    if not any(f.get(f"zh:last={t}") for t in ("nr", "ns", "nt", "nz", "nrt", "nrfg")):
        return False
    if not any(f.get(f"zh:pos={t}") for t in ("n", "nr", "ns", "nt", "nz", "nrt", "nrfg")):
        return False
    text = fold_chinese(cand.text)
    return len(text) >= 3 or (len(text) == 2 and text[-1] in _PLACE_END)
