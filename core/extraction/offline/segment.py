"""Sentences and terms for English and Chinese (Simplified and Traditional).

Sentences keep their exact character span inside the paragraph, so every quote the extractor
emits is a true substring of its source. Terms are what salience and keywords are computed on:

* English: a regex tokenizer, a stop-word list and light suffix stemming.
* Chinese: word segmentation with rjieba (the jieba-rs binding: maintained, offline, fast, and
  its dictionary segments Traditional text reasonably). It is imported on first use only, so
  start-up stays fast; if it is missing, character bigrams are the fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from core.extraction.offline.sentences import MAX_SENTENCE, MIN_SENTENCE, split_sentences
from core.text.chinese import fold_chinese
from core.text.cjk import HAN, HAN_RE
from core.validation.lexicon import EN_STOP, ZH_STOP

__all__ = ["EN_STOP", "MAX_SENTENCE", "MIN_SENTENCE", "ZH_STOP", "split_sentences"]


_EN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*[A-Za-z0-9]|[A-Za-z]|\d+(?:[.,:]\d+)*%?")
_HAS_CJK = HAN_RE
_ZH_ENTITY_TAGS = frozenset({"nr", "ns", "nt", "nz", "m", "eng", "nrt", "nrfg", "t"})
# Characters that glue onto unknown words when the dictionary (Simplified-centred) misses a
# Traditional form: an out-of-vocabulary token is cut at them ("個階段" -> "階段").
_ZH_GLUE = re.compile(
    r"[的了是在和與与也就都而及或並并把被讓让對对於于為为以之其這这那此個个們们會会能可還还又很更最再已它他她我你"
    r"您後后時时將将從从向到給给由得地着著過过嗎吗呢吧啊]"
)


@dataclass(slots=True)
class Sentence:
    """One candidate quote: an exact span of a prose paragraph, with its terms."""

    paragraph_id: str
    para_rank: int  # position among prose paragraphs (0 = first)
    index: int  # position inside its paragraph
    text: str
    lang: str
    terms: list[str] = field(default_factory=list)  # normalised content terms, in order
    surfaces: dict[str, str] = field(default_factory=dict)  # term -> first surface form in text
    entities: int = 0  # names, numbers, dates: what factual questions ask about
    traditional: bool = False  # the document is written in Traditional Chinese
    words: list[str] = field(default_factory=list)  # every word (English lower case), for counts
    start: int = 0  # the sentence's span in its paragraph
    end: int = 0
    quote_start: int = 0  # where the quote starts in the paragraph (before `start` when merged)
    quote: str = ""  # the evidence: the sentence, or the sentence before and it (exact span)
    content: str = ""  # the unit's words (core/extraction/offline/standalone.py)
    eligible: bool = True  # may become a unit (core/extraction/offline/eligible.py)
    problem: str = ""  # why it may not: eligible.sentence_problem's reason, or NEEDS_CONTEXT


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Light English suffix stemming (enough to match 'plant'/'plants', 'review'/'reviews')."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            return word[: len(word) - len(suffix)] + repl
    return word


_jieba_tag: Callable[[str], Any] | None = None
_jieba_has_word: Callable[[str], bool] = bool
_jieba_tried = False


def _zh_tagger() -> Callable[[str], Any] | None:
    """rjieba's part-of-speech cutter, imported on first use (dictionary load ~0.1 s)."""
    global _jieba_tag, _jieba_tried, _jieba_has_word
    if not _jieba_tried:
        _jieba_tried = True
        try:
            import rjieba

            _jieba_tag = rjieba.tag
            _jieba_has_word = rjieba.has_word
        except Exception:  # pragma: no cover - fallback when the wheel is unavailable
            _jieba_tag = None
    return _jieba_tag


def _zh_has_word() -> Callable[[str], bool]:
    _zh_tagger()
    return _jieba_has_word


def analyse(sentence: Sentence) -> None:
    """Fill terms, surfaces and the entity count of a sentence."""
    text = sentence.text
    if _HAS_CJK.search(text):
        _analyse_zh(sentence)
    else:
        _analyse_en(sentence)


def _add(sentence: Sentence, term: str, surface: str) -> None:
    sentence.terms.append(term)
    sentence.surfaces.setdefault(term, surface)


def _analyse_en(sentence: Sentence) -> None:
    first = True
    for m in _EN_WORD.finditer(sentence.text):
        word = m.group(0)
        low = word.lower()
        sentence.words.append(low)
        if low in EN_STOP or (len(low) < 2 and not low.isdigit()):
            first = False
            continue
        if word[0].isdigit() or (word[0].isupper() and not first) or word[1:] != low[1:]:
            sentence.entities += 1
        first = False
        _add(sentence, stem(low), word)


def _analyse_zh(sentence: Sentence) -> None:
    tagger = _zh_tagger()
    if tagger is None:
        _bigrams(sentence)
        return
    has_word = _zh_has_word()
    for word, tag in tagger(sentence.text):
        w = word.strip()
        if not w:
            continue
        sentence.words.append(w)
        if _HAS_CJK.search(w):
            pieces = [w] if len(w) < 3 or has_word(w) else [p for p in _ZH_GLUE.split(w) if p]
            for piece in pieces:
                if len(piece) < 2 or piece in ZH_STOP:
                    continue
                if tag in _ZH_ENTITY_TAGS:
                    sentence.entities += 1
                _add(sentence, piece, piece)
        elif re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.\-%]*", w):
            low = w.lower()
            if low in EN_STOP:
                continue
            sentence.entities += 1
            _add(sentence, stem(low), w)


def _bigrams(sentence: Sentence) -> None:
    for run in re.findall(f"[{HAN}]+|[A-Za-z0-9]+", sentence.text):
        if not _HAS_CJK.match(run):
            if run.lower() not in EN_STOP:
                sentence.entities += 1
                _add(sentence, run.lower(), run)
            continue
        for i in range(max(1, len(run) - 1)):
            gram = run[i : i + 2]
            if len(gram) == 2:
                _add(sentence, gram, gram)


# Common characters that exist in only one script: counting them tells the script of a text.
_TRAD_ONLY = re.compile(r"[這個們為於與來說會時對後從麼動歷發經點種實學將過現體長開關進應當國際術圖]")
_SIMP_ONLY = re.compile(r"[这个们为于与来说会时对后从么动历发经点种实学将过现体长开关进应当国际术图]")


def is_traditional(text: str) -> bool:
    """True when Traditional-only characters outnumber Simplified-only ones."""
    sample = text[:20000]
    return len(_TRAD_ONLY.findall(sample)) > len(_SIMP_ONLY.findall(sample))


def zh_words(text: str) -> list[tuple[str, str, int, int]]:
    """rjieba words with their part-of-speech tag and character span; (run, "x", a, b) per
    whitespace-separated token when rjieba is unavailable."""
    tagger = _zh_tagger()
    if tagger is None:
        return [(m.group(0), "x", m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    # Traditional text is segmented through its Simplified folding (jieba's dictionary is
    # Simplified: "普林斯頓大學授" came out one word, "普林斯顿大学" is one name) and mapped back:
    # folding keeps every character's place, so each span holds in the text as written.
    folded = fold_chinese(text)
    out: list[tuple[str, str, int, int]] = []
    at = 0
    for word, tag in tagger(folded):
        found = folded.find(word, at)
        if found < 0:
            continue
        out.append((text[found : found + len(word)], tag, found, found + len(word)))
        at = found + len(word)
    return _whole_numbers(text, out)


def zh_word_spans(run: str) -> list[tuple[int, int]]:
    """The words of a run of Han characters as spans, by the segmentation `zh_words` gives
    (the extractor's words: the Article screen's word cursor steps by them, issue 32); one
    character a word when rjieba is unavailable."""
    if _zh_tagger() is None:
        return [(i, i + 1) for i in range(len(run))]
    return [(a, b) for _, _, a, b in zh_words(run)]


_DIGITS = re.compile(r"[0-9０-９]+")


def _whole_numbers(text: str, words: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """ "1,000" and "2.51" as one number (jieba cuts them at the comma and the point)."""
    out: list[tuple[str, str, int, int]] = []
    for word in words:
        if (
            len(out) >= 2
            and _DIGITS.fullmatch(word[0])
            and out[-1][0] in {",", ".", "，"}
            and _DIGITS.fullmatch(out[-2][0])
            and out[-2][3] == out[-1][2]
            and out[-1][3] == word[2]
            and (out[-1][0] == "." or len(word[0]) == 3)
        ):
            start = out[-2][2]
            out[-2:] = [(text[start : word[3]], "m", start, word[3])]
            continue
        out.append(word)
    return out
