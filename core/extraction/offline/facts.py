"""What a cloze should hide: the fact, whole. Each blank candidate gets a tier; the cloze takes
the best tier there is, and the learned model (blank_model.py) only orders candidates within it.

Readers who rated our cards blind (../shared/eval/BLIND.md) rejected most clozes because the
blank fell on filler or a side detail while the fact stayed visible ("An investigation is under
____" -> "way"; "...choosing to eat ____." -> "healthy food"), or cut a name or a number in two
("2,____", "____·史都華" -> "詹姆斯", "Centre for ____"). The learned model had only learned where
people's questions point in a reading test. So, in order:

  0  a quantity or a date: a number with what it counts ("15.5 ha", "3,862 people", "34×"), a
     year or a full date ("1816", "June 1944"); never a weekday or "last week";
  1  a name, whole: "Maria Skłodowska-Curie", "Centre for Contemporary Art", "詹姆斯·史都華",
     "普林斯頓大學"; never a first name whose surname stays in the card, never the person who
     merely said it ("..., said ____"; "____, a spokesman");
  2  a term: a word the lexicon does not know, or a noun phrase the article uses again;
  3  another noun phrase whose head is no generic word ("way", "people", "aspect", "方面").

Never a blank: an item of a list of three or more (the card would be a set), a phrase whose
abbreviation follows in brackets ("____ (DNNs)": the answer leaks), or anything in tier 4.
"""

from __future__ import annotations

import re

from core.extraction.offline import english
from core.extraction.offline.candidates import Candidate
from core.extraction.offline.names import zh_name
from core.text.chinese import fold_chinese
from core.validation.lexicon import RELATIVE_TIME

QUANTITY, NAME, TERM, PHRASE, NEVER = 0, 1, 2, 3, 4
# What a tier adds to the learned model's score (a probability): facts first, the model's own
# order kept among candidates of one tier and between close ones.
# (Measured on half A of the dev QA sets, against people's questions: names +0.3, quantities
# +0.15 and terms +0.1 matched them best; a strict order by tier fell from 0.50 to 0.43.)
BONUS = {QUANTITY: 0.15, NAME: 0.3, TERM: 0.1, PHRASE: 0.0}

GENERIC_EN = english.words(
    "way ways thing things part parts area areas side sides level levels form forms kind kinds type types "
    "lot lots number numbers amount amounts time times year years day days week weeks month months people "
    "person persons man men woman women one ones aspect aspects fact facts case cases example examples "
    "point points place places end use uses stuff world life lives group groups member members variety "
    "range series set majority rest others issue issues problem problems question questions matter matters "
    "situation situations thing idea ideas reason reasons way manner sort sorts bit bits piece pieces "
    "moment moments period periods stage stages step steps addition while deal couple total share lead "
    "order terms basis role effect effects impact feature features detail details factor factors "
    "things someone something everything anything nothing everyone anyone individuals others"
)
GENERIC_ZH = frozenset(
    fold_chinese(w)
    for w in [
        "时候",
        "时间",
        "方面",
        "问题",
        "情况",
        "部分",
        "地方",
        "东西",
        "事情",
        "人们",
        "其中",
        "之一",
        "方式",
        "作用",
        "过程",
        "结果",
        "原因",
        "影响",
        "关系",
        "内容",
        "工作",
        "活动",
        "方法",
        "情形",
        "状况",
        "特点",
        "地区",
        "领域",
        "程度",
        "目前",
        "现在",
        "当时",
        "时期",
        "阶段",
        "主要",
        "重要",
        "一些",
        "许多",
        "很多",
        "所有",
        "各种",
        "其他",
        "前身",
        "后来",
        "以后",
        "以前",
        "之后",
        "之前",
        "同时",
        "开始",
        "最后",
        "第一",
        "人",
        "事",
        "物",
        "年代",
        "世纪",
    ]
)
_SPEAKER_BEFORE = re.compile(
    r"(?:\b(?:according to|said|says|told|added|explained|wrote|tweeted|noted|quoted)|(?:据|據|表示|指出|认为|認為|说|說))\s*$",
    re.I,
)
_SPEAKER_AFTER = re.compile(
    r"^\s*(?:(?:,\s*)?(?:said|says|told|added|explained|wrote|tweeted|noted|who said|(?:has |have |had )?"
    r"(?:asked|urged|argued|claimed|warned|insisted|called on|pointed to|point to|believes?|thinks?))\b|"
    r",\s+(?:a|an|the)\s+"
    r"(?:[\w-]+\s+){0,3}(?:spokes\w*|professor|lecturer|researcher|analyst|expert|head|director|chief|"
    r"editor|reporter|correspondent|officer|official|secretary|minister|organi[sz]er|founder)\b)"
    r"|^(?:表示|指出|说|說|认为|認為|称|稱)",
    re.I,
)
_PAIR_AFTER = re.compile(r"^\s+(?:and|&)\s+[A-Z][\w'-]+\s+[A-Z]")
_PAIR_BEFORE = re.compile(r"[A-Z][\w'.-]*\s+[A-Z][\w'.-]+\s+(?:and|&)\s+$")
_ABBREVIATION = re.compile(r"^\s*[(（]\s*([A-Z][A-Za-z0-9&.-]{1,9})\s*[)）]")
_DIGIT = re.compile(r"[0-9０-９]")
_FRACTION = re.compile(
    r"\b(?:one|two|three|four|five|a)[- ](?:third|quarter|fifth|half)s?\b|\b(?:half|two-thirds|three-quarters)\b|"
    r"\b\d+(?:\.\d+)?\s?(?:%|percent|per cent)",
    re.I,
)
_ZH_NUMERAL = re.compile(r"[0-9０-９一二三四五六七八九十百千万萬億亿两兩]")


# A name that only says where ("... considered a health care professional in the UK"): readers
# found it blanked while the fact stayed visible. Unless the sentence is about where.
_WHERE_BEFORE = re.compile(r"\b(?:in|at|across|throughout|around|within|outside)\s+(?:the\s+)?$", re.I)
_ABOUT_WHERE = re.compile(
    r"\b(?:located|born|held|based|headquartered|situated|lies|lie|lay|buried|died|founded|settled|"
    r"moved|fled|lived|takes place|took place|hosted)\b|位于|位於|出生|举行|舉行|总部|總部",
    re.I,
)
SIDE_PLACE = 0.2  # what such a name loses


def adjust(content: str, cand: Candidate, level: int) -> float:
    """What the candidate's value loses for its place in the sentence: a name that only says
    where (unless the sentence is about where), a year beside another figure (the figure is
    the finding: "the richest 1% owned 40% of global assets in the year 2000")."""
    if level == NAME and _WHERE_BEFORE.search(content[: cand.start]) and not _ABOUT_WHERE.search(content):
        return -SIDE_PLACE
    if (
        level == QUANTITY
        and _YEAR_ONLY.search(cand.text)
        and _OTHER_FIGURE.search(content[: cand.start] + " " + content[cand.end :])
    ):
        return -SIDE_PLACE
    return 0.0


_YEAR_ONLY = re.compile(r"^(?:(?:the )?year )?(?:1[0-9]{3}|20[0-9]{2})s?$|^(?:1[0-9]{3}|20[0-9]{2})年$", re.I)
_OTHER_FIGURE = re.compile(
    r"\d+(?:[.,]\d+)?\s?(?:%|percent|per cent|million|billion|[a-z]{1,3}\b)|[0-9]+(?:萬|万|億|亿|%|％)"
)


def tier(
    content: str,
    cand: Candidate,
    lang: str,
    names: list[tuple[int, int]],
    lists: list[tuple[int, int]],
    compounds: tuple[tuple[int, int], ...] = (),
) -> int:
    """The candidate's tier (module docstring); NEVER for what must not be blanked. `names`:
    the content's whole names (name_spans, zh_names); `lists`: its lists (list_spans);
    `compounds`: Chinese runs of nominal or number words (zh_compounds), inside which a whole
    name may be blanked alone ("母校普林斯頓大學" -> "普林斯頓大學")."""
    text = cand.text
    before, after = content[: cand.start], content[cand.end :]
    if RELATIVE_TIME.search(text) or _in_list(cand, lists) or _leaks_abbreviation(text, after, before):
        return NEVER
    if re.search(r"[(（]\s*$", before) or re.match(r"^\s*[(（][^()（）]{1,40}[)）]", after):
        return NEVER  # a bracketed alias ("(HIB)", "(Rhazes)") or what it names: one gives the other
    if re.match(r"^\s*\(", after) and len(text) <= 2:
        return NEVER  # notation: "f(n)"
    for a, b in [*names, *compounds]:
        if (a, b) == (cand.start, cand.end) or not (cand.start < b and a < cand.end):
            continue
        if cand.start <= a and b <= cand.end:
            continue  # it holds the whole name or compound
        if not ((a, b) in compounds and a <= cand.start and cand.end <= b and zh_name(cand)):
            return NEVER  # part of a name or of a compound, or one cut across
    named = any((a, b) == (cand.start, cand.end) for a, b in names) or cand.features.get("name")
    if named and (_SPEAKER_BEFORE.search(before) or _SPEAKER_AFTER.search(after)):
        return NEVER  # who said it, not what was said
    if named and (_PAIR_AFTER.match(after) or _PAIR_BEFORE.search(before)):
        return NEVER  # one of two names ("Richard Wilkinson and ____"): a set, and rarely the point
    if cand.features.get("en:kind=head") and any(a < cand.start < b for a, b in names):
        return NEVER  # the head of a named term ("the Kuznets ____"): the term is cut
    if lang == "zh":
        return _zh_tier(cand, bool(named))
    return _en_tier(cand, bool(named))


def _en_tier(cand: Candidate, named: bool) -> int:
    f = cand.features
    head = cand.text.split()[-1].lower().strip(".,;:")
    if f.get("en:cause_clause"):
        return PHRASE
    if head in GENERIC_EN and not _DIGIT.search(cand.text):
        return NEVER  # "way", "people", "fact one": no fact to recall
    if re.fullmatch(r"(?:one|a|an)\s+\w+", cand.text, re.I):
        return PHRASE  # "one militant": a determiner, not a count
    if _FRACTION.search(cand.text):
        return QUANTITY  # "one-third", "half", "two-thirds"
    if f.get("en:year") or f.get("en:number"):
        if (
            f.get("en:number")
            and not f.get("en:year")
            and len(cand.text.split()) == 1
            and not _has_unit(cand.text)
        ):
            return PHRASE  # a bare count: "the ____ of them"
        return QUANTITY
    if named:
        return NAME
    if f.get("en:pos=PROPN"):
        return NAME
    if f.get("en:unknown") or (f.get("en:doc_log_count", 0.0) >= 1.1 and len(cand.text.split()) > 1):
        return TERM
    return PHRASE


def _has_unit(text: str) -> bool:
    return bool(re.search(r"[%×x$£€¥]|\bper ?cent\b", text, re.I))


def _zh_tier(cand: Candidate, named: bool) -> int:
    f = cand.features
    folded = fold_chinese(cand.text)
    if folded in GENERIC_ZH:
        return NEVER
    if f.get("zh:time") or (f.get("zh:number") and _DIGIT.search(cand.text)):
        return QUANTITY
    if re.fullmatch(r"[0-9０-９][0-9０-９.,]*\s*[A-Za-zµμ%°]{1,4}", cand.text):
        return QUANTITY  # "1µA", "220V", "35%": a number with its unit
    if f.get("zh:number") and _ZH_NUMERAL.search(cand.text) and len(cand.text) > 1:
        return QUANTITY
    if named or zh_name(cand):
        return NAME
    if f.get("zh:latin") or (f.get("zh:doc_log_count", 0.0) >= 1.1 and len(cand.text) >= 2):
        return TERM
    if f.get("zh:pos=v") or f.get("zh:pos=d") or f.get("zh:pos=a"):
        return NEVER  # a verb or an adverb: the card asks for a word, not a fact
    return PHRASE


def _in_list(cand: Candidate, lists: list[tuple[int, int]]) -> bool:
    """An item of a list of three or more: the card would be a set to learn."""
    return any(a <= cand.start and cand.end <= b for a, b in lists)


def _leaks_abbreviation(text: str, after: str, before: str = "") -> bool:
    """Brackets that spell out the blank's initials ("Deep neural networks (DNNs)"), a blank
    that is the bracketed abbreviation of the words just before it ("Recurrent Discounted
    Attention (____)"), or an "or NK cells" after it: the card says the answer again."""
    if re.search(r"[(（]\s*$", before) and re.fullmatch(r"[A-Z][A-Za-z0-9&.-]{1,9}", text.strip()):
        words = re.findall(r"[A-Za-z][\w'-]*", before[-80:])
        initials = "".join(w[0] for w in words[-len(text) - 2 :]).upper()
        if re.sub(r"[^A-Z]", "", text.upper()).rstrip("S") in initials:
            return True
    alias = re.match(r"^\s*,?\s*or\s+([A-Z]{2,6})\b", after)
    if alias:
        initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", text)).upper()
        if alias.group(1).rstrip("S")[:2] == initials[:2]:
            return True
    m = _ABBREVIATION.match(after)
    if not m:
        return False
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", text)).lower()
    letters = re.sub(r"[^A-Za-z]", "", m.group(1)).lower().rstrip("s")
    return bool(letters) and (initials.startswith(letters) or letters.startswith(initials[:2]))
