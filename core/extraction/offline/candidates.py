"""What a cloze could blank in a unit's content: whole words and whole phrases, with features.

English candidates are noun phrases (and their head noun), names, numbers with what they
count, dates, and a "because ..." clause; their edges are token edges, so a blank never cuts a
word ("nd____"). Chinese candidates are rjieba words and runs of nominal words (a name, a
term, a number with its measure word, a date), so a blank never cuts a compound.

Each candidate carries general features (part of speech, entity shape, position, length,
how often the article uses it); core/extraction/offline/blank_model.py weighs them. Nothing
here knows a data set or a word of one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from core.extraction.offline import english
from core.extraction.offline.segment import zh_words
from core.validation.lexicon import EN_STOP, ZH_STOP

_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})s?$")
_ZH_TIME = re.compile(r"[年月日世紀纪代]$|^(?:公元|西元)")
_ZH_NOMINAL = frozenset({"n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "vn", "eng", "an", "j", "l", "i"})
_ZH_NUMBER = frozenset({"m", "mq", "q", "t"})
_CAUSE = re.compile(r"\b(?:because|since|as a result of|due to)\s+(.{6,}?)(?=[,;.]|$)", re.I)
_ZH_CAUSE = re.compile(r"(?:因为|因為|由于|由於)([^，,。；]{2,24})")
MAX_WORDS = 8
MAX_ZH = 12


@dataclass(frozen=True, slots=True)
class Candidate:
    start: int  # character span in the content
    end: int
    text: str
    features: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DocCounts:
    """How often the article uses each word (English lower-case words, Chinese words)."""

    counts: dict[str, int]
    sentences: int


def en_candidates(content: str, doc: DocCounts) -> list[Candidate]:
    tokens = english.tag(content)
    spans: dict[tuple[int, int], str] = {}
    for i, j in english.noun_phrases(content, tokens):
        spans.setdefault((i, j), "np")
        if j - i > 1:
            spans.setdefault((j - 1, j), "head")
            k = i
            while k < j - 1 and tokens[k].pos == "ADJ":
                k += 1
            if k > i:
                spans.setdefault((k, j), "np")
    first_verb = next((t.start for t in tokens if t.pos in {"VERB", "AUX"}), len(content))
    out: list[Candidate] = []
    for (i, j), kind in spans.items():
        if j - i > MAX_WORDS:
            continue
        part = tokens[i:j]
        a, b = part[0].start, part[-1].end
        text = content[a:b]
        if all(t.text.lower() in EN_STOP for t in part):
            continue
        prev = tokens[i - 1] if i else None
        feats = _en_features(part, prev, kind, doc)
        feats.update(_shared(a, b, len(content), j - i, a < first_verb))
        out.append(Candidate(a, b, text, feats))
    m = _CAUSE.search(content)
    if m and len(m.group(1).split()) <= 15:
        a, b = m.span(1)
        feats = {"en:cause_clause": 1.0, **_shared(a, b, len(content), len(m.group(1).split()), False)}
        out.append(Candidate(a, b, m.group(1), feats))
    return out


def _en_features(
    part: list[english.Token], prev: english.Token | None, kind: str, doc: DocCounts
) -> dict[str, float]:
    head = part[-1]
    words = [t.text for t in part]
    low = head.text.lower()
    count = doc.counts.get(low, 0)
    feats = {
        f"en:pos={head.pos}": 1.0,
        f"en:kind={kind}": 1.0,
        "en:number": float(any(t.pos == "NUM" for t in part)),
        "en:year": float(any(_YEAR.match(w) for w in words)),
        "en:month": float(any(w.lower() in english.MONTHS for w in words)),
        "en:capital": float(any(w[:1].isupper() for w in words)),
        "en:acronym": float(any(w.isupper() and len(w) > 1 for w in words)),
        "en:unknown": float(not english.lexicon().get(low) and head.pos != "NUM"),
        "en:after_prep": float(prev is not None and prev.pos == "ADP"),
        "en:after_det": float(prev is not None and prev.pos == "DET"),
        "en:doc_log_count": math.log1p(count),
        "en:doc_once": float(count <= 1),
        "en:doc_share": min(1.0, count / max(1, doc.sentences)),
        "en:symbol": float(any(re.search(r"[.\-_]", w[1:]) for w in words)),
    }
    return feats


def _shared(a: int, b: int, n: int, words: int, subject: bool) -> dict[str, float]:
    return {
        "pos_start": a / max(1, n),
        "at_start": float(a == 0),
        "at_end": float(b >= n - 2),
        "words=1": float(words == 1),
        "words=2": float(words == 2),
        "words=3": float(words == 3),
        "words>3": float(words > 3),
        "subject": float(subject),
    }


def zh_candidates(content: str, doc: DocCounts) -> list[Candidate]:
    words = zh_words(content)  # (word, tag, start, end)
    out: list[Candidate] = []
    seen: set[tuple[int, int]] = set()
    n = len(content)
    for i, (word, tag, a, _) in enumerate(words):
        if len(word.strip()) < 2 and not word.isdigit():
            continue
        if re.fullmatch(r"[一這这那每某各][^\W\d]?", word):
            continue  # a determiner with its measure word ("一份", "这个"): nothing to recall
        j = i
        # a run of nominal words, or a number with its measure word and noun
        while (
            j + 1 < len(words) and _zh_joins(words[j][1], words[j + 1][1]) and words[j + 1][3] - a <= MAX_ZH
        ):
            j += 1
        for end_index in {i, j}:
            span = (a, words[end_index][3])
            if span in seen:
                continue
            seen.add(span)
            text = content[span[0] : span[1]]
            if text in ZH_STOP or len(text) > MAX_ZH or not text.strip():
                continue
            prev_tag = words[i - 1][1] if i else ""
            feats = _zh_features(text, tag, words[end_index][1], prev_tag, end_index - i + 1, doc)
            feats.update(_shared(span[0], span[1], n, end_index - i + 1, False))
            out.append(Candidate(span[0], span[1], text, feats))
    m = _ZH_CAUSE.search(content)
    if m:
        a, b = m.span(1)
        out.append(Candidate(a, b, m.group(1), {"zh:cause_clause": 1.0, **_shared(a, b, n, 3, False)}))
    return out


def _zh_joins(left: str, right: str) -> bool:
    if left in _ZH_NUMBER:
        return right in _ZH_NUMBER or right in _ZH_NOMINAL
    return left in _ZH_NOMINAL and right in _ZH_NOMINAL


def _zh_features(text: str, first: str, last: str, prev: str, words: int, doc: DocCounts) -> dict[str, float]:
    count = doc.counts.get(text, 0)
    group = first if first in _ZH_NOMINAL | _ZH_NUMBER or first in {"v", "a", "d"} else "other"
    return {
        f"zh:pos={group}": 1.0,
        f"zh:last={last if last in _ZH_NOMINAL | _ZH_NUMBER else 'other'}": 1.0,
        "zh:number": float(
            bool(re.search(r"[0-9０-９一二三四五六七八九十百千万萬億亿两兩]", text)) and first in _ZH_NUMBER
        ),
        "zh:digit": float(bool(re.search(r"[0-9０-９]", text))),
        "zh:time": float(bool(_ZH_TIME.search(text)) and first in _ZH_NUMBER),
        "zh:latin": float(bool(re.search(r"[A-Za-z]", text))),
        "zh:after_prep": float(prev in {"p", "v"}),
        "zh:chars": min(len(text), 12) / 12,
        "zh:doc_log_count": math.log1p(count),
        "zh:doc_once": float(count <= 1),
        "zh:doc_share": min(1.0, count / max(1, doc.sentences)),
        "zh:compound": float(words > 1),
    }
